import type { PlanFeature } from '@doable/contracts-plans';
import { withIntegerArchivedProjectIds } from './live-notification-ids';
import type { SyncCommand, SyncRequest, SyncResult } from '@doable/sync-engine';
import type { ReadNeeds } from '@doable/sync-read';
import { renderSyncEnvelope } from '../shared/sync-envelope';
import type { ObjectWriters } from '../shared/sync-dialect';
import { integerId } from './legacy-values';
import { canonicalOldSyncCommand } from './old-sync-commands';
import { EMPTY_OLD_SYNC_CONTEXT, oldSyncWriterContext, oldSyncWriters } from './old-sync-writers';

/**
 * What Sync v7 and v6 share around their objects: the commands renamed (old-sync-commands), the
 * read needs of flat lists, and the answer's rules (sync-interface §9): at most ten comments per
 * task, `day_orders` only when asked by `day_orders_timestamp`, errors naming their `command_type`.
 */

/** An old read renders tasks and projects by flat place and tasks' labels by id: it needs these read too. */
export const OLD_SYNC_READ_NEEDS: ReadNeeds = { projectTasks: true, allProjects: true, labels: true };

/** The resource types v7 had (its `all`; v7 docs, `_sync.md`); v6's `all` is the same set. */
export const OLD_SYNC_RESOURCE_TYPES: readonly string[] = ['labels', 'projects', 'items', 'notes', 'filters', 'reminders', 'locations', 'user', 'live_notifications', 'collaborators', 'notification_settings'];

/** v7 sync answered at most this many comments per task (sync-interface §9); the newest are kept. */
export const OLD_SYNC_NOTES_PER_ITEM = 10;

/** `all` as the old generations meant it: their own resource types, not the ones added since. */
export function oldResourceTypes(types: readonly unknown[]): unknown[] {
  return types.flatMap((name): unknown[] => (name === 'all' ? [...OLD_SYNC_RESOURCE_TYPES] : [name]));
}

/** The old commands as the domain's, and each command's type as sent (its errors name it), by uuid. */
/**
 * What v7 (and v6, which takes its commands) kept for paid users: filters (sync-interface §2,
 * "Filters are limited to paid users in v7"), and comments on a project, which v8 still kept
 * for them (v7 clients had no project comments of their own to lose).
 */
function oldSyncPaidOnly(command: { type: string; args: Record<string, unknown> }): PlanFeature | undefined {
  if (command.type === 'filter_add') return 'filters';
  if (command.type === 'note_add' && (command.args['item_id'] ?? null) === null && (command.args['project_id'] ?? null) !== null) return 'comments';
  return undefined;
}

export function canonicalOldSyncCommands(commands: readonly SyncCommand[]): { commands: SyncCommand[]; commandTypes: Record<string, string> } {
  const commandTypes: Record<string, string> = {};
  const canonical = commands.map((command) => {
    commandTypes[command.uuid] = command.type;
    const renamed = canonicalOldSyncCommand(command.type, command.args);
    const paidOnly = oldSyncPaidOnly(renamed);
    return { ...command, type: renamed.type, args: renamed.args, ...(paidOnly ? { paidOnly } : {}) };
  });
  return { commands: canonical, commandTypes };
}

/** The newest OLD_SYNC_NOTES_PER_ITEM live comments of each task (ids grow with posting); tombstones all pass. */
export function capNotes(notes: ReadonlyArray<Record<string, unknown>>): Array<Record<string, unknown>> {
  const live = new Map<unknown, Array<Record<string, unknown>>>();
  for (const note of notes) {
    if (note['is_deleted'] === 1) continue;
    const list = live.get(note['item_id']) ?? [];
    list.push(note);
    live.set(note['item_id'], list);
  }
  const kept = new Set<Record<string, unknown>>();
  for (const list of live.values()) {
    list.sort((a, b) => (a['id'] as number) - (b['id'] as number));
    for (const note of list.slice(-OLD_SYNC_NOTES_PER_ITEM)) kept.add(note);
  }
  return notes.filter((note) => note['is_deleted'] === 1 || kept.has(note));
}

/** Adds `command_type` to each error of a command's status (a whole-command refusal, or each refused id's). */
export function withCommandTypes(statuses: Readonly<Record<string, unknown>>, types: Readonly<Record<string, string>>): Record<string, unknown> {
  const typed = (status: unknown, type: string | undefined): unknown => {
    if (status === 'ok' || status === null || typeof status !== 'object' || type === undefined) return status;
    if (typeof (status as { error_code?: unknown }).error_code === 'number') return { ...status, command_type: type };
    return Object.fromEntries(Object.entries(status).map(([id, each]) => [id, typed(each, type)]));
  };
  return Object.fromEntries(Object.entries(statuses).map(([uuid, status]) => [uuid, typed(status, types[uuid])]));
}

/**
 * `day_orders_timestamp` (sync-interface §9, v6 docs `_workflow.md`): not sent, no day orders;
 * sent and the day orders unchanged, the `day_orders` entry is left out. Guess (no public source
 * gives the value's meaning beyond "when day orders were last updated"): the timestamp is the
 * read's change version as text; day orders changed when the read is full, or a task it carries
 * has a day order or left the list (deleted, completed into history).
 */
export function applyDayOrders(body: Record<string, unknown>, result: SyncResult, asked: string | undefined): void {
  const read = result.read;
  if (!read || !('day_orders' in body)) return;
  if (asked === undefined) {
    delete body['day_orders'];
    return;
  }
  const items = read.rows.items ?? [];
  const changed = read.fullSync || items.some((item) => item.day_order >= 0 || item.is_deleted || item.in_history);
  body['day_orders_timestamp'] = changed ? read.version : asked;
  if (!changed) delete body['day_orders'];
}

/** What an old dialect's parse leaves for its render. */
export function oldSyncRenderParams(commandTypes: Record<string, string>, dayOrdersTimestamp: unknown): Record<string, unknown> {
  // Sent as text (a form field) or a JSON number; anything else is no timestamp v6/v7 wrote.
  const asked = typeof dayOrdersTimestamp === 'string' || typeof dayOrdersTimestamp === 'number' ? String(dayOrdersTimestamp) : undefined;
  return { command_types: commandTypes, ...(asked === undefined ? {} : { day_orders_timestamp: asked }) };
}

/** The writers of one read (flat places, labels by id, dues in the user's zone), or of no read. */
export function oldSyncWritersFor(result: SyncResult): ObjectWriters {
  const read = result.read;
  return oldSyncWriters(read ? oldSyncWriterContext(read.rows, read.context) : EMPTY_OLD_SYNC_CONTEXT);
}

/** The answer in v7's names (v6 renames its keys after): the shared envelope, then the old rules. */
export function renderOldSync(result: SyncResult, request: SyncRequest | undefined, writers: ObjectWriters = oldSyncWritersFor(result)): Record<string, unknown> {
  const body = renderSyncEnvelope(result, writers);
  delete body['full_sync_date_utc'];
  // Project comments came with v8 (sync-interface §9): v7 and v6 had none.
  delete body['project_notes'];
  // Real ids as the integers they were (v7 docs: `"temp_id_mapping": {"381e601f-...": 128501470}`).
  body['temp_id_mapping'] = Object.fromEntries(Object.entries(result.tempIdMapping).map(([tempId, id]) => [tempId, integerId(id)]));
  if (Array.isArray(body['notes'])) body['notes'] = capNotes(body['notes'] as Array<Record<string, unknown>>);
  withIntegerArchivedProjectIds(body);
  const params = request?.renderParams ?? {};
  applyDayOrders(body, result, params['day_orders_timestamp'] as string | undefined);
  if (result.syncStatus) body['sync_status'] = withCommandTypes(result.syncStatus, (params['command_types'] ?? {}) as Record<string, string>);
  return body;
}
