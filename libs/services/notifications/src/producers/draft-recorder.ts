import type { EntityManager } from 'typeorm';
import type { LiveNotificationRepository, NotificationDraft } from '../store/live-notification.repository';

/**
 * The notification repository the producers write through, noting each transaction's drafts
 * (inserted or upserted) so the consumer can mail them after the producer ran, without every
 * producer having to hand its drafts back. Keyed by the transaction's manager: concurrent
 * events never see each other's drafts.
 */
export class DraftRecorder {
  readonly repository: LiveNotificationRepository;
  private readonly drafts = new WeakMap<EntityManager, NotificationDraft[]>();

  constructor(notifications: LiveNotificationRepository) {
    const note = (manager: EntityManager, drafts: readonly NotificationDraft[]) => this.drafts.set(manager, [...(this.drafts.get(manager) ?? []), ...drafts]);
    // Every other method is the repository's own (the prototype is the real instance).
    this.repository = Object.create(notifications, {
      insert: { value: (manager: EntityManager, drafts: readonly NotificationDraft[]) => (note(manager, drafts), notifications.insert(manager, drafts)) },
      upsert: { value: (manager: EntityManager, draft: NotificationDraft) => (note(manager, [draft]), notifications.upsert(manager, draft)) },
    }) as LiveNotificationRepository;
  }

  /** The drafts written in this transaction so far, forgotten once taken. */
  take(manager: EntityManager): NotificationDraft[] {
    const drafts = this.drafts.get(manager) ?? [];
    this.drafts.delete(manager);
    return drafts;
  }
}
