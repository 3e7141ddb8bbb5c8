import type { ResourceType } from '../engine/resource-types';
import type { ItemRow } from '../items/item.model';
import type { SyncDialect } from '../read/resource-source';
import type { Project } from '../projects/project.model';
import type { Section } from '../sections/section.model';
import type { SyncResult } from '../read/sync-snapshot';
import type { UserProfile } from '../users/user-profile.model';
import { emptyStats } from './default-resources';
import { writeUserSettings } from './user.writer';
import { wireTimestamp } from './wire-format';

/** How one dialect writes each object; the envelope around them is shared. */
export interface SyncObjectWriters {
  readonly dialect: SyncDialect;
  project(project: Project): Record<string, unknown>;
  item(item: ItemRow): Record<string, unknown>;
  section(section: Section): Record<string, unknown>;
  user(user: UserProfile): Record<string, unknown>;
}

/**
 * The response envelope of the Sync API (sync-interface §4.1): only requested resource types
 * appear; on an incremental sync the arrays hold only what changed.
 */
export function renderSyncEnvelope(result: SyncResult, writers: SyncObjectWriters): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const read = result.read;
  if (read) {
    const has = (type: ResourceType) => read.types.has(type);
    body['sync_token'] = read.syncToken;
    body['full_sync'] = read.fullSync;
    if (read.fullSync) body['full_sync_date_utc'] = wireTimestamp(read.generatedAt);
    if (has('user') && read.user) body['user'] = writers.user(read.user);
    const rendered = new Set<ResourceType>();
    for (const { rows, source } of read.resources) {
      Object.assign(body, source.render(rows, writers.dialect));
      rendered.add(source.type);
    }
    // Requested types whose storage has not landed yet answer empty, in the shape clients expect.
    if (has('items') && !rendered.has('items')) {
      body['items'] = [];
      body['day_orders'] = {};
    }
    if (has('notes') && !rendered.has('notes')) {
      body['notes'] = [];
      body['project_notes'] = [];
    }
    for (const type of ['sections', 'labels', 'filters', 'reminders', 'reminders_location', 'completed_info', 'workspaces', 'workspace_users', 'workspace_filters', 'role_actions'] as const) {
      if (has(type) && !rendered.has(type)) body[type] = [];
    }
    if (has('collaborators') && !rendered.has('collaborators')) {
      body['collaborators'] = [];
      body['collaborator_states'] = [];
    }
    if (has('live_notifications')) {
      body['live_notifications'] = read.notifications?.live_notifications ?? [];
      if (read.notifications) body['live_notifications_last_read_id'] = read.notifications.last_read_id;
    }
    if (has('user_settings') && read.userSettings) body['user_settings'] = writeUserSettings(read.userSettings);
    if (has('notification_settings') && read.fullSync) body['settings_notifications'] = {};
    if (has('user_plan_limits') && read.planLimits) body['user_plan_limits'] = read.planLimits;
    if (has('stats') && read.fullSync) body['stats'] = read.stats ?? emptyStats(read.generatedAt);
  }
  body['temp_id_mapping'] = result.tempIdMapping;
  if (result.syncStatus) body['sync_status'] = result.syncStatus;
  return body;
}
