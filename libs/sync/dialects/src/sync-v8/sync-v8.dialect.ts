import type { LiveNotification } from '@doable/contracts-notifications';
import type { SyncResult } from '@doable/sync-engine';
import { renderSyncEnvelope } from '../shared/sync-envelope';
import { flag, integerId, labelIdLookup } from '../legacy';
import type { SyncDialect } from '../shared/sync-dialect';
import { parseSyncV8Request } from './sync-v8.request';
import { syncV8Writers } from './sync-v8.writers';

const DIGITS = /^[0-9]{1,15}$/;

/**
 * A live notification as v8 wrote it (v8 draft `_livenotifications.md`): integer ids (its own,
 * `from_uid`, and every `*_id`/`*_uid` the notification carries), `created` as epoch seconds
 * instead of `created_at`, `is_unread` and `is_deleted` as 0/1 (guessed: the draft shows no flag).
 */
export function writeV8LiveNotification(notification: LiveNotification): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(notification)) {
    if (key === 'created_at') fields['created'] = Math.floor(Date.parse(String(value)) / 1000);
    else if (key === 'is_unread' || key === 'is_deleted') fields[key] = flag(value === true);
    else if ((key === 'id' || key.endsWith('_id') || key.endsWith('_uid')) && typeof value === 'string' && DIGITS.test(value)) fields[key] = integerId(value);
    else fields[key] = value;
  }
  return fields;
}

/**
 * Sync v8 at `/sync/v8/sync`. The envelope is the shared one, written with the v8 writers,
 * then what v8 wrote differently: no `full_sync_date_utc` (v1's), location reminders inside
 * `reminders`, temp ids mapped to integer ids (clients find the created object by
 * `id === temp_id_mapping[temp_id]`), live notifications and `live_notifications_last_read_id`
 * with integer ids (0 when none is read, as the v8 docs' example).
 */
export function renderSyncV8(result: SyncResult): Record<string, unknown> {
  const read = result.read;
  const body = renderSyncEnvelope(result, syncV8Writers(labelIdLookup(read?.context?.labels ?? [])));
  delete body['full_sync_date_utc'];
  if (Array.isArray(body['reminders_location'])) {
    if (Array.isArray(body['reminders'])) body['reminders'] = [...(body['reminders'] as unknown[]), ...(body['reminders_location'] as unknown[])];
    delete body['reminders_location'];
  }
  if (Array.isArray(body['live_notifications'])) body['live_notifications'] = (body['live_notifications'] as LiveNotification[]).map(writeV8LiveNotification);
  if ('live_notifications_last_read_id' in body) {
    const lastRead = body['live_notifications_last_read_id'];
    body['live_notifications_last_read_id'] = typeof lastRead === 'string' && DIGITS.test(lastRead) ? integerId(lastRead) : 0;
  }
  body['temp_id_mapping'] = Object.fromEntries(Object.entries(result.tempIdMapping).map(([tempId, id]) => [tempId, integerId(id)]));
  return body;
}

/** Sync v8: its request translated to the canonical one, the canonical result written in v8's shapes. */
export const syncV8Dialect: SyncDialect = {
  name: 'sync-v8',
  parseRequest: (body) => parseSyncV8Request(body),
  render: renderSyncV8,
  // For satellites that write single objects: a task needs the user's labels (writeV8Item with
  // labelIdLookup); these write a task's labels as none.
  writers: syncV8Writers(new Map()),
};
