import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ResourceSource, SyncDialect } from '../read/resource-source';
import type { Reminder } from './reminder.model';
import { ReminderRepository } from './reminder.repository';
import { REMINDER_WRITERS } from './reminder.writer';

/** The `reminders` resource type: relative and absolute reminders. */
@Injectable()
export class ReminderSource implements ResourceSource<Reminder> {
  readonly type = 'reminders' as const;

  constructor(private readonly reminders: ReminderRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<Reminder[]> {
    return this.reminders.listActive(manager, userId, 'time');
  }

  listChangedSince(manager: EntityManager, userId: string, version: string): Promise<Reminder[]> {
    return this.reminders.listChangedSince(manager, userId, version, 'time');
  }

  render(rows: readonly Reminder[], dialect: SyncDialect): Record<string, unknown> {
    return { reminders: rows.map(REMINDER_WRITERS[dialect]) };
  }
}

/** The `reminders_location` resource type (never part of `all`): location reminders, in their own key. */
@Injectable()
export class LocationReminderSource implements ResourceSource<Reminder> {
  readonly type = 'reminders_location' as const;

  constructor(private readonly reminders: ReminderRepository) {}

  listActive(manager: EntityManager, userId: string): Promise<Reminder[]> {
    return this.reminders.listActive(manager, userId, 'location');
  }

  listChangedSince(manager: EntityManager, userId: string, version: string): Promise<Reminder[]> {
    return this.reminders.listChangedSince(manager, userId, version, 'location');
  }

  render(rows: readonly Reminder[], dialect: SyncDialect): Record<string, unknown> {
    return { reminders_location: rows.map(REMINDER_WRITERS[dialect]) };
  }
}
