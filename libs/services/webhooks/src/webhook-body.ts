import type { ObjectEvent } from '@doable/contracts-sync';

/** The api/v1 resource that renders each object type (filters have none: their event data is what the event carries). */
export const RESOURCE_OF = { item: 'task', note: 'comment', project: 'project', section: 'section', label: 'label' } as const;

export interface Initiator {
  readonly id: string;
  readonly email: string;
  readonly full_name: string;
  readonly image_id: string | null;
  readonly is_premium: boolean;
}

/**
 * The body public-api-facts §1.5 shows: `{event_name, user_id, event_data, initiator,
 * triggered_at, version, event_data_extra?}`. `object` is the api/v1 object as it stood when the
 * body was made (null: deleted, or a type without a reader), then the event's own fields stand in.
 */
export function webhookBody(eventName: string, userId: string, event: ObjectEvent, object: Record<string, unknown> | null, initiator: Initiator, version: string): string {
  const eventData = object ?? { id: event.objectId, ...event.extraData, ...(event.eventType === 'deleted' ? { is_deleted: true } : {}) };
  const body: Record<string, unknown> = {
    event_name: eventName,
    user_id: userId,
    event_data: eventData,
    initiator,
    triggered_at: event.eventDate,
    version,
  };
  // Completion and reopening have their own events here, so an update's intent is always this one.
  if (eventName === 'item:updated') body['event_data_extra'] = { update_intent: 'item_updated' };
  return JSON.stringify(body);
}
