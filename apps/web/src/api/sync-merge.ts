import { KEYED_RESOURCES, type KeyedResource, type ResourceShapes, type SyncData, type SyncReply } from './sync-types';

export const EMPTY_DATA: SyncData = {
  items: new Map(),
  projects: new Map(),
  sections: new Map(),
  labels: new Map(),
  filters: new Map(),
  notes: new Map(),
  collaborators: new Map(),
  collaborator_states: new Map(),
  live_notifications: new Map(),
  workspaces: new Map(),
  workspace_users: new Map(),
  folders: new Map(),
  reminders: new Map(),
  user: null,
  notificationSettings: null,
  syncToken: '*',
};

type Row = { id?: string; project_id?: string | null; workspace_id?: string; user_id?: string; is_deleted?: boolean };

/** A row's key: its id, or for a collaborator state or a workspace membership (which have none) its project or workspace and user. */
export function keyOf(row: Row): string {
  return row.id ?? `${row.project_id ?? row.workspace_id ?? ''}:${row.user_id ?? ''}`;
}

/** The rows of one resource in a reply; project comments and location reminders come in their own lists but are notes and reminders too. */
function rowsOf(reply: SyncReply, resource: KeyedResource): Row[] | undefined {
  if (resource === 'notes' && reply.project_notes) return [...(reply.notes ?? []), ...reply.project_notes];
  if (resource === 'reminders' && reply.reminders_location) return [...(reply.reminders ?? []), ...reply.reminders_location];
  const rows: unknown = reply[resource];
  // `collaborators` is documented as an object in places; only a list of people is merged.
  return Array.isArray(rows) ? (rows as Row[]) : undefined;
}

function mergeRows<T extends Row>(current: ReadonlyMap<string, T>, rows: T[] | undefined, full: boolean): ReadonlyMap<string, T> {
  // An incremental answer that did not touch this resource keeps the very same map (cheap re-render checks).
  if (!full && (!rows || rows.length === 0)) return current;
  const next = full ? new Map<string, T>() : new Map(current);
  for (const row of rows ?? []) {
    // Deleted rows are announced once with is_deleted; the app forgets them.
    if (row.is_deleted) next.delete(keyOf(row));
    else next.set(keyOf(row), row);
  }
  return next;
}

/**
 * Folds a Sync API answer into what the app holds: a full sync replaces everything, an
 * incremental one upserts changed rows and forgets deleted ones. The user object is merged so
 * a partial user (incremental) keeps the fields it did not repeat.
 */
export function mergeSync(data: SyncData, reply: SyncReply): SyncData {
  const full = reply.full_sync === true;
  const merged = { ...data } as { -readonly [K in keyof SyncData]: SyncData[K] };
  for (const resource of KEYED_RESOURCES) {
    // One loop over the resources: TypeScript cannot tie each map to its row type here, the table does.
    const maps = merged as Record<KeyedResource, ReadonlyMap<string, ResourceShapes[KeyedResource]>>;
    maps[resource] = mergeRows<Row>(data[resource], rowsOf(reply, resource), full) as ReadonlyMap<string, ResourceShapes[KeyedResource]>;
  }
  // Sent whole whenever they changed: the latest replaces what was held.
  if (reply.settings_notifications) merged.notificationSettings = reply.settings_notifications;
  if (reply.user) merged.user = full || !data.user ? reply.user : { ...data.user, ...reply.user };
  if (reply.sync_token) merged.syncToken = reply.sync_token;
  return merged;
}
