import type { ObjectEvent } from '@doable/contracts-sync';

/**
 * What a delivery keeps of the event it was made from: sync's object event as it arrived (older
 * ones without `object`, `previous`, `audience`), or a fired reminder in the same form.
 */
export type DeliveryEvent = Omit<ObjectEvent, 'eventType' | 'objectType'> & { readonly objectType: string; readonly eventType: string };

/** `item:updated` is also sent for a completion and a reopening, its intent saying which (§1.5). */
const UPDATE_INTENT: Readonly<Record<string, string>> = { completed: 'item_completed', uncompleted: 'item_uncompleted' };

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
 * triggered_at, version, event_data_extra?}`. `object` is the api/v1 object as of the event
 * (the event's own snapshot; for an older event without one, as read when the body was made;
 * null: deleted, or a type without a reader, then the event's own fields stand in).
 * `item:updated` carries `event_data_extra: {old_item, update_intent}`.
 */
export function webhookBody(eventName: string, userId: string, event: DeliveryEvent, object: Record<string, unknown> | null, initiator: Initiator, version: string): string {
  const eventData = object ?? { id: event.objectId, ...event.extraData, ...(event.eventType === 'deleted' ? { is_deleted: true } : {}) };
  const body: Record<string, unknown> = {
    event_name: eventName,
    user_id: userId,
    event_data: eventData,
    initiator,
    triggered_at: event.eventDate,
    version,
  };
  if (eventName === 'item:updated') body['event_data_extra'] = { ...(event.previous ? { old_item: event.previous } : {}), update_intent: UPDATE_INTENT[event.eventType] ?? 'item_updated' };
  return JSON.stringify(body);
}
