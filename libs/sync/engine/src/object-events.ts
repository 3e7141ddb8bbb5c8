import { type EventObjectType, type ObjectEvent, type ObjectEventType, OBJECT_EVENTS_PER_MESSAGE, SyncEvents } from '@doable/contracts-sync';
import type { CommandContext } from './command-handler';

/**
 * What a command did to one object, before the context fills in who did it, when, and the
 * workspace: what each object type's `<type>-events.ts` builds (the one place its extra_data is
 * decided) and recordObjectEvents() records.
 */
export interface ObjectChange {
  readonly objectType: EventObjectType;
  readonly objectId: string;
  readonly eventType: ObjectEventType;
  readonly parentProjectId: string | null;
  readonly parentItemId: string | null;
  readonly extraData: Record<string, unknown>;
  readonly fileUrl?: string | null;
  /**
   * The workspace the object's project belongs to, when the command read it already (project
   * commands); undefined: looked up here, once for all the changes of the call.
   */
  readonly workspaceId?: string | null;
  /** The object as the command left it (canonical, as the repositories hold it), when the command has it whole. */
  readonly object?: object;
  /** The object before the command: updates, completions and reopenings of tasks. */
  readonly previous?: object;
}

/** The object an event carries, as the command left it, and (updates of tasks) as it was. */
export interface ObjectStates {
  readonly object?: object;
  readonly previous?: object;
}

/** `object` with the values a command wrote over it (undefined: left as it was), for its event. */
export function withChanges<T extends object>(object: T, changes: { readonly [K in keyof T]?: T[K] | undefined }): T {
  return { ...object, ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) };
}

/**
 * Bytes of entries one v2 event holds at most: NATS refuses a message over its max_payload (1 MB
 * by default), and an entry can carry a task's description twice (object and previous).
 */
const MESSAGE_BYTES = 512 * 1024;

/**
 * The changes cut into v2 events: in order, at most OBJECT_EVENTS_PER_MESSAGE entries and about
 * MESSAGE_BYTES of them each (an entry larger than that alone), so a task deleted with hundreds
 * of subtasks stays within what NATS carries.
 */
function messagesOf(events: readonly ObjectEvent[]): Array<{ events: ObjectEvent[] }> {
  const messages: Array<{ events: ObjectEvent[] }> = [];
  let current: ObjectEvent[] = [];
  let bytes = 0;
  for (const event of events) {
    const size = JSON.stringify(event).length;
    if (current.length > 0 && (current.length >= OBJECT_EVENTS_PER_MESSAGE || bytes + size > MESSAGE_BYTES)) {
      messages.push({ events: current });
      current = [];
      bytes = 0;
    }
    current.push(event);
    bytes += size;
  }
  if (current.length > 0) messages.push({ events: current });
  return messages;
}

/**
 * Records the changes as SyncEvents.objectEvents (v2: one event holding them all, cut only past
 * 100 entries or 512 KB), in the command's transaction: one outbox row, one publish and one
 * claim per consumer where v1 took one per change (issue #48). Inside the executor they join the
 * request's (CommandContext.pendingObjectEvents), so a request writes one event in one statement
 * however many commands it has; elsewhere they are written at once. v1 is not recorded any
 * more; its consumers stay for what a previous release records. A command refused or rolled back takes them with it (its savepoint, or the optimistic pass's
 * rollback), and a replayed uuid never runs the command, so records nothing. The workspaces
 * of the projects involved come from the access check the command made (requireAccess reads a
 * project's workspace with the role); a project not checked so costs one more read for all of
 * them, skipped in the acting user's Inbox (never a workspace's) or when a change carries its own.
 */
export async function recordObjectEvents(context: CommandContext, changes: readonly ObjectChange[]): Promise<void> {
  if (changes.length === 0) return;
  const [workspaces, members] = await Promise.all([workspacesOf(context, changes), membersOf(context, changes)]);
  const eventDate = new Date().toISOString();
  const write = (change: ObjectChange, object: object | undefined) => (object === undefined ? undefined : context.writeEventObject?.(change.objectType, object));
  const events: ObjectEvent[] = changes.map((change) => ({
    objectType: change.objectType,
    objectId: change.objectId,
    eventType: change.eventType,
    initiatorId: context.userId,
    eventDate,
    parentProjectId: change.parentProjectId,
    parentItemId: change.parentItemId,
    workspaceId: change.workspaceId !== undefined ? change.workspaceId : (workspaces.get(projectOf(change) ?? '') ?? null),
    extraData: change.extraData,
    ...(change.objectType === 'note' ? { fileUrl: change.fileUrl ?? null } : {}),
    ...defined('object', write(change, change.object)),
    ...defined('previous', write(change, change.previous)),
    audience: audienceOf(context, members, change),
  }));
  if (context.pendingObjectEvents) context.pendingObjectEvents.push(...events);
  else await writeObjectEvents(context.tx, events);
}

/** Writes the events as v2 object events (cut as messagesOf says), in one statement. */
export async function writeObjectEvents(tx: CommandContext['tx'], events: readonly ObjectEvent[]): Promise<void> {
  if (events.length > 0) await tx.emitAll(SyncEvents.objectEvents, messagesOf(events));
}

function defined<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** Who the change concerns: the initiator, and the active members of its project. */
function audienceOf(context: CommandContext, members: ReadonlyMap<string, readonly string[]>, change: ObjectChange): string[] {
  const projectId = projectOf(change);
  return [...new Set([context.userId, ...((projectId !== null && members.get(projectId)) || [])])];
}

/**
 * The active members of the projects the changes are in, in one read; none for the acting
 * user's Inbox (theirs alone) nor for objects in no project (personal labels and filters).
 */
async function membersOf(context: CommandContext, changes: readonly ObjectChange[]): Promise<Map<string, string[]>> {
  const projectIds = new Set<string>();
  for (const change of changes) {
    const projectId = projectOf(change);
    if (projectId !== null && projectId !== context.user.inboxProjectId) projectIds.add(projectId);
  }
  if (projectIds.size === 0) return new Map();
  const rows = await context.tx.manager.query<Array<{ project_id: string; user_ids: string[] }>>(
    `SELECT project_id::text AS project_id, array_agg(user_id::text) AS user_ids FROM sync.project_members
      WHERE project_id = ANY($1::bigint[]) AND state = 'active' GROUP BY project_id`,
    [[...projectIds]],
  );
  return new Map(rows.map((row) => [row.project_id, row.user_ids]));
}

/** The project whose workspace an event carries: a project's own, anything else's project. */
function projectOf(change: ObjectChange): string | null {
  return change.objectType === 'project' ? change.objectId : change.parentProjectId;
}

async function workspacesOf(context: CommandContext, changes: readonly ObjectChange[]): Promise<Map<string, string | null>> {
  const known = new Map<string, string | null>();
  const unknown = new Set<string>();
  for (const change of changes) {
    const projectId = projectOf(change);
    if (change.workspaceId !== undefined || projectId === null || projectId === context.user.inboxProjectId) continue;
    const workspaceId = context.knownWorkspaceOf(projectId);
    if (workspaceId === undefined) unknown.add(projectId);
    else known.set(projectId, workspaceId);
  }
  if (unknown.size === 0) return known;
  const rows = await context.tx.manager.query<Array<{ id: string; workspace_id: string }>>(
    `SELECT id::text, workspace_id::text FROM sync.projects WHERE id = ANY($1::bigint[]) AND workspace_id IS NOT NULL`,
    [[...unknown]],
  );
  for (const row of rows) known.set(row.id, row.workspace_id);
  return known;
}
