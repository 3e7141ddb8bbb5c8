import type { ReminderRow } from '@doable/sync-domain';
import { REMINDER_FIELDS } from '@doable/contracts-sync';
import { fieldRowWriter, type Reads, type ReadsRow } from './field-writer';

/** Each field the reminder writers read is a field of the stored reminder: a compile error otherwise. */
export type ReminderTableReadsReminders = Reads<ReadsRow<ReminderRow, typeof REMINDER_FIELDS>>;

/**
 * A reminder as api/v1 writes it, for the SDK's ReminderSchema union, from the reminder field
 * table: the common `id, notify_uid, item_id, project_id, is_deleted, type`, then its type's
 * keys (REMINDER_FIELDS says which and why).
 */
export const writeReminder = fieldRowWriter<ReminderRow>(REMINDER_FIELDS, 'apiV1');

/**
 * A reminder as v9 writes it: api/v1's, with the spec's both time keys on each time reminder (a
 * relative one's `due` is null: it fires by its task's due). v9's readers (the community
 * `todoist` client, the 2.x/3.x SDKs' quick add) do not validate reminders.
 */
export const writeV9Reminder = fieldRowWriter<ReminderRow>(REMINDER_FIELDS, 'v9');
