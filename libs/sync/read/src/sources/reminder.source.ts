import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource } from './resource-source';
import { type MembershipChanges, type Reminder, ReminderRepository, type WireReminder } from '@doable/sync-domain';

/** The `reminders` resource type: relative and absolute reminders. */
@Injectable()
export class ReminderSource implements ResourceSource<'reminders'> {
  readonly type = 'reminders' as const;

  constructor(private readonly reminders: ReminderRepository) {}

  /** Timestamps as wire text: every dialect only writes a full sync's reminders out. */
  listActive(manager: EntityManager, userId: string): Promise<WireReminder[]> {
    return this.reminders.listActiveWire(manager, userId, 'time');
  }

  listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<Reminder[]> {
    return this.reminders.listChangedSince(manager, userId, version, 'time', memberships);
  }
}

/** The `reminders_location` resource type (never part of `all`): location reminders, in their own key. */
@Injectable()
export class LocationReminderSource implements ResourceSource<'reminders_location'> {
  readonly type = 'reminders_location' as const;

  constructor(private readonly reminders: ReminderRepository) {}

  /** Timestamps as wire text, as the other reminders'. */
  listActive(manager: EntityManager, userId: string): Promise<WireReminder[]> {
    return this.reminders.listActiveWire(manager, userId, 'location');
  }

  listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<Reminder[]> {
    return this.reminders.listChangedSince(manager, userId, version, 'location', memberships);
  }
}
