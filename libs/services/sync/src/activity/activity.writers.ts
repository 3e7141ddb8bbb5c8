import { integerId, integerIdOrNull, legacyTimestamp, v8Timestamp, wireTimestamp } from '@doable/sync-dialects';
import type { ActivityEvent } from './activity-event.model';

/** The dialects that answer `activity/get` and `activities`, each with its own ids and timestamps. */
export type ActivityDialect = 'sync-v9' | 'sync-v8' | 'sync-v7' | 'rest-api-v1';

/**
 * One event as a dialect writes it: v9 and api/v1 string ids and `...ffffffZ` timestamps (api/v1
 * validated by sdk 17's ActivityEventSchema: every nullable field present); v8 integer ids and
 * `2014-09-26T08:25:05Z`; v7 integer ids and `Fri 26 Sep 2014 08:25:05 +0000`.
 */
export function writeActivityEvent(dialect: ActivityDialect, event: ActivityEvent): Record<string, unknown> {
  const date = new Date(event.event_date);
  if (dialect === 'sync-v9' || dialect === 'rest-api-v1') {
    return {
      id: event.id,
      object_type: event.object_type,
      object_id: event.object_id,
      event_type: event.event_type,
      event_date: wireTimestamp(date),
      parent_project_id: event.parent_project_id,
      parent_item_id: event.parent_item_id,
      initiator_id: event.initiator_id,
      extra_data: event.extra_data,
    };
  }
  return {
    id: integerId(event.id),
    object_type: event.object_type,
    object_id: integerId(event.object_id),
    event_type: event.event_type,
    event_date: dialect === 'sync-v8' ? v8Timestamp(date) : legacyTimestamp(date),
    parent_project_id: integerIdOrNull(event.parent_project_id),
    parent_item_id: integerIdOrNull(event.parent_item_id),
    initiator_id: integerId(event.initiator_id),
    extra_data: event.extra_data,
  };
}
