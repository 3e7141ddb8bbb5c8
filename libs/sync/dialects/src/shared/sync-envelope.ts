import { notificationSettingsView } from '@doable/contracts-sync';
import type { ResourceRows, ResourceType } from '@doable/sync-read';
import type { SyncResult } from '@doable/sync-engine';
import type { ObjectWriters } from './sync-dialect';
import { emptyStats } from './default-resources';
import { RawJson } from './raw-json';
import { wireTimestamp } from './wire-format';

type RowWriters = { readonly [T in keyof ResourceRows]: (rows: ResourceRows[T], writers: ObjectWriters) => Record<string, unknown> };

/** The response keys each sourced resource fills, from its canonical rows. */
const RESOURCE_KEYS: RowWriters = {
  projects: (rows, writers) => ({ projects: rows.map((row) => writers.project(row)) }),
  // Tasks, and the daily-agenda order of those that have one.
  items: (rows, writers) => ({
    items: rows.map((row) => writers.item(row)),
    day_orders: Object.fromEntries(rows.filter((item) => item.day_order >= 0 && !item.is_deleted).map((item) => [item.id, item.day_order])),
  }),
  sections: (rows, writers) => ({ sections: rows.map((row) => writers.section(row)) }),
  labels: (rows, writers) => ({ labels: rows.map((row) => writers.label(row)) }),
  filters: (rows, writers) => ({ filters: rows.map((row) => writers.filter(row)) }),
  // Task comments in `notes`, project comments in `project_notes`.
  notes: (rows, writers) => ({
    notes: rows.filter((row) => row.item_id !== null).map((row) => writers.note(row)),
    project_notes: rows.filter((row) => row.item_id === null).map((row) => writers.note(row)),
  }),
  reminders: (rows, writers) => ({ reminders: rows.map((row) => writers.reminder(row)) }),
  reminders_location: (rows, writers) => ({ reminders_location: rows.map((row) => writers.reminder(row)) }),
  // No list: it did not change, and `[]` would wipe the client's (see LocationSource).
  locations: ([list], writers) => (list ? { locations: list.entries.map((place) => writers.location(place)) } : {}),
  completed_info: (rows, writers) => ({ completed_info: rows.map((row) => writers.completedInfo(row)) }),
  view_options: (rows, writers) => ({ view_options: rows.map((row) => writers.viewOptions(row)) }),
  project_view_options_defaults: (rows, writers) => ({ project_view_options_defaults: rows.map((row) => writers.projectViewOptionsDefaults(row)) }),
  // One entry holding both keys (a partial read with no source for it writes both empty).
  collaborators: ([entry], writers) => ({
    collaborators: (entry?.collaborators ?? []).map((row) => writers.collaborator(row)),
    collaborator_states: (entry?.states ?? []).map((row) => writers.collaboratorState(row)),
  }),
  // A generation without workspace writers never reads these (its types refuse them); written empty if asked.
  workspaces: (rows, writers) => ({ workspaces: writers.workspaces ? rows.map(writers.workspaces.workspace) : [] }),
  workspace_users: (rows, writers) => ({ workspace_users: writers.workspaces ? rows.map(writers.workspaces.workspaceUser) : [] }),
  folders: (rows, writers) => ({ folders: writers.workspaces ? rows.map(writers.workspaces.folder) : [] }),
  workspace_filters: (rows, writers) => ({ workspace_filters: writers.workspaces ? rows.map(writers.workspaces.workspaceFilter) : [] }),
};

/**
 * The response envelope of the Sync API (sync-interface §4.1) in the shape v9 and api/v1 share:
 * only requested resource types appear; on an incremental sync the arrays hold only what changed.
 * Older versions start from it and rename or drop what they wrote differently. A resource
 * PostgreSQL wrote (SyncRead.json) is a RawJson under each of its keys: answerText splices it.
 */
export function renderSyncEnvelope(result: SyncResult, writers: ObjectWriters): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const read = result.read;
  if (read) {
    const has = (type: ResourceType) => read.types.has(type);
    body['sync_token'] = read.syncToken;
    body['full_sync'] = read.fullSync;
    if (read.fullSync) body['full_sync_date_utc'] = wireTimestamp(read.generatedAt);
    if (has('user') && read.user) body['user'] = writers.user(read.user, read.websocketUrl, read.avatarOrigin);
    for (const type of Object.keys(RESOURCE_KEYS) as Array<keyof ResourceRows>) {
      // Written by PostgreSQL with this dialect's SQL (ReadNeeds.json): its keys' text as it is.
      const json = read.json?.[type];
      if (json) {
        for (const [key, text] of Object.entries(json)) body[key] = new RawJson(text);
        continue;
      }
      // A requested type read by no source (a test's partial read) is written empty.
      const rows = read.rows[type] ?? (has(type) ? [] : undefined);
      if (rows) Object.assign(body, (RESOURCE_KEYS[type] as (rows: unknown, writers: ObjectWriters) => Record<string, unknown>)(rows, writers));
    }
    // The role table is the code's, not the account's: whole on a full sync, unchanged (empty) after.
    // A list of one object: every SDK validates role_actions as `record<string, unknown>[]`.
    if (has('role_actions')) body['role_actions'] = read.rolePermissions ? [read.rolePermissions] : [];
    // Left out, not emptied, when notifications did not answer: a full sync's empty list would wipe a client's copy.
    if (has('live_notifications') && !read.notificationsUnavailable) {
      body['live_notifications'] = read.notifications?.live_notifications ?? [];
      if (read.notifications) body['live_notifications_last_read_id'] = read.notifications.last_read_id;
    }
    if (has('user_settings') && read.userSettings) body['user_settings'] = writers.userSettings(read.userSettings);
    // With user_settings: on a full sync, and after either changed (settings_version moves for both).
    if (has('notification_settings') && read.userSettings) body['settings_notifications'] = notificationSettingsView(read.userSettings.notification_settings);
    if (has('user_plan_limits') && read.planLimits) body['user_plan_limits'] = writers.planLimits ? writers.planLimits(read.planLimits) : read.planLimits;
    if (has('stats') && read.fullSync) body['stats'] = read.stats ?? emptyStats(read.generatedAt);
  }
  body['temp_id_mapping'] = result.tempIdMapping;
  if (result.syncStatus) body['sync_status'] = result.syncStatus;
  return body;
}
