import type { EventSubject } from '@doable/contracts-common';
import type { Tx } from '@doable/shared-runtime';
import type { NotificationDraft } from '../store/live-notification.repository';

/**
 * Turns one domain event into live notifications, in the consumer's transaction. Answers the
 * users whose notifications were created or changed (they are told to sync, see
 * NotificationsEvents.delivered); an event that changed nothing answers none.
 */
export type Produce<P> = (payload: P, tx: Tx, eventId: string) => Promise<readonly string[]>;

/** Registers a producer as a durable consumer of its event, under a stable name. */
export type RegisterProducer = <P>(name: string, event: EventSubject<P>, produce: Produce<P>) => void;

/**
 * One draft per receiver, in the order given, without duplicates, and never to the user who
 * caused the event (no one is told of their own action).
 */
export function draftsFor(
  receivers: ReadonlyArray<string | null | undefined>,
  actorId: string | null,
  draft: (receiver: string) => Omit<NotificationDraft, 'userId'>,
): NotificationDraft[] {
  const unique = [...new Set(receivers.filter((receiver): receiver is string => typeof receiver === 'string' && receiver !== actorId))];
  return unique.map((receiver) => ({ userId: receiver, ...draft(receiver) }));
}
