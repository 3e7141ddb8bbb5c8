import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { updateVersioned } from '../persistence/versioned-update';
import { REMINDER_COLUMNS, REMINDER_WIRE_COLUMNS, type Reminder, type ReminderFields, type WireReminder } from './reminder.model';
import { asLeftTombstones, changedSinceCondition, changedSinceParams, type MembershipChanges, inVisibleProjects, NO_MEMBERSHIP_CHANGES, VISIBLE_PROJECTS } from '../membership/membership';

/** Which reminders a read wants: time ones (`reminders`) or location ones (`reminders_location`). */
export type ReminderKind = 'time' | 'location';

const KIND_FILTER: Readonly<Record<ReminderKind, string>> = { time: `type <> 'location'`, location: `type = 'location'` };
const JSON_COLUMNS: ReadonlySet<string> = new Set(['due']);

/** A full sync's reminders of a kind: the active ones in the projects the user can see. */
const activeReminders = (kind: ReminderKind): string => `FROM sync.reminders WHERE ${inVisibleProjects('project_id')} AND NOT is_deleted AND ${KIND_FILTER[kind]} ORDER BY id`;

/**
 * Reminders on the tasks a user can see. A reminder's project_id follows its task (see the
 * notes-and-reminders migration). Every method runs on the caller's transaction.
 */
@Injectable()
export class ReminderRepository {
  async insert(manager: EntityManager, reminder: ReminderFields & { projectId: string; itemId: string }, version: string): Promise<Reminder> {
    const [row] = await manager.query<Reminder[]>(
      `INSERT INTO sync.reminders (project_id, item_id, notify_uid, type, due, minute_offset, is_urgent, name, loc_lat, loc_long, loc_trigger, radius, service, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
       RETURNING ${REMINDER_COLUMNS}`,
      [
        reminder.projectId,
        reminder.itemId,
        reminder.notify_uid,
        reminder.type,
        reminder.due === null ? null : JSON.stringify(reminder.due),
        reminder.minute_offset,
        reminder.is_urgent,
        reminder.name,
        reminder.loc_lat,
        reminder.loc_long,
        reminder.loc_trigger,
        reminder.radius,
        reminder.service,
        version,
      ],
    );
    return row;
  }

  /** A visible, not deleted reminder, locked for the rest of the transaction. */
  async findVisibleForUpdate(manager: EntityManager, userId: string, reminderId: string): Promise<Reminder | undefined> {
    const rows = await manager.query<Reminder[]>(
      `SELECT ${REMINDER_COLUMNS} FROM sync.reminders WHERE id = $2 AND NOT is_deleted AND project_id IN (${VISIBLE_PROJECTS}) FOR UPDATE`,
      [userId, reminderId],
    );
    return rows[0];
  }

  async update(manager: EntityManager, reminderIds: readonly string[], changes: Partial<ReminderFields & { is_deleted: boolean }>, version: string): Promise<void> {
    await updateVersioned(manager, 'sync.reminders', reminderIds, changes, version, { jsonColumns: JSON_COLUMNS });
  }

  /** Whether a user is a member of a project (a reminder may only notify someone who sees its task). */
  async isProjectMember(manager: EntityManager, projectId: string, userId: string): Promise<boolean> {
    const rows = await manager.query<unknown[]>(`SELECT 1 FROM sync.project_members WHERE project_id = $1 AND user_id = $2 AND state = 'active'`, [projectId, userId]);
    return rows.length > 0;
  }

  /**
   * How many reminders of a kind are the user's: those that notify them (not deleted, on tasks
   * they can still see). What max_reminders_time and max_reminders_location count.
   */
  async countNotifying(manager: EntityManager, userId: string, kind: ReminderKind): Promise<number> {
    const [row] = await manager.query<Array<{ count: number }>>(
      `SELECT count(*)::int AS count FROM sync.reminders WHERE notify_uid = $1 AND NOT is_deleted AND ${KIND_FILTER[kind]} AND project_id IN (${VISIBLE_PROJECTS})`,
      [userId],
    );
    return row.count;
  }

  async listActive(manager: EntityManager, userId: string, kind: ReminderKind): Promise<Reminder[]> {
    return manager.query<Reminder[]>(`SELECT ${REMINDER_COLUMNS} ${activeReminders(kind)}`, [userId]);
  }

  /** listActive with the timestamps as wire text, for a full sync (it only writes them out). */
  async listActiveWire(manager: EntityManager, userId: string, kind: ReminderKind): Promise<WireReminder[]> {
    return manager.query<WireReminder[]>(`SELECT ${REMINDER_WIRE_COLUMNS} ${activeReminders(kind)}`, [userId]);
  }

  /** Everything stamped after a version, tombstones included; all reminders of projects joined since, tombstones for those of projects left. */
  async listChangedSince(manager: EntityManager, userId: string, version: string, kind: ReminderKind, memberships: MembershipChanges = NO_MEMBERSHIP_CHANGES): Promise<Reminder[]> {
    const rows = await manager.query<Reminder[]>(
      `SELECT ${REMINDER_COLUMNS} FROM sync.reminders WHERE ${changedSinceCondition(memberships, 'NOT is_deleted')} AND ${KIND_FILTER[kind]} ORDER BY id`,
      changedSinceParams(userId, version, memberships),
    );
    return asLeftTombstones(rows, memberships.left);
  }

}
