import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { REMINDER_COLUMNS, type Reminder } from '@doable/sync-domain';

/** A reminder claimed to fire, with the instant it is due at. */
export interface DueReminder {
  readonly reminder: Reminder;
  readonly fireAt: Date;
  /** Whom to mail and what, when the reminder is mailed (its service is email); see SyncEvents.reminderFired. */
  readonly mail?: { readonly to: string; readonly lang: string; readonly taskContent: string };
}

/**
 * The instant a stored due (jsonb) falls at: a fixed-time due (`...Z`) as written; a floating
 * one (a time without a zone) in the notified user's timezone; a date without a time is no
 * instant (a time reminder needs a time), so it never fires.
 */
function instantOf(due: string): string {
  return `CASE WHEN (${due}->>'date') ~ '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?Z$' THEN (${due}->>'date')::timestamptz
     WHEN (${due}->>'date') ~ '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?$' THEN (${due}->>'date')::timestamp AT TIME ZONE u.timezone END`;
}

/** When each live time reminder is due: its own due (absolute), or minute_offset before its open task's due (relative). */
const FIRE_AT = `CASE r.type WHEN 'absolute' THEN ${instantOf('r.due')} ELSE ${instantOf('i.due')} - make_interval(mins => COALESCE(r.minute_offset, 0)) END`;

/** The reminders the scheduler fires: their due instants and the instant each last fired for. */
@Injectable()
export class ReminderFiringRepository {
  /**
   * Inside the firing transaction: locks up to `limit` reminders due by now and not yet fired
   * for that instant (SKIP LOCKED: another replica's claim is passed over, never waited for or
   * taken twice; a row it fired meanwhile is re-checked and left out), and marks each fired for
   * its instant. Answers them, earliest first.
   */
  async claimDue(manager: EntityManager, limit: number): Promise<DueReminder[]> {
    const rows = await manager.query<Array<Reminder & { fire_at: Date; notify_email: string; notify_lang: string; item_content: string; email_reminders: boolean }>>(
      `SELECT ${REMINDER_COLUMNS.replace(/(^|,\s*)(\w+)/g, '$1r.$2')}, d.fire_at, d.notify_email, d.notify_lang, d.item_content, d.email_reminders
         FROM sync.reminders r
         JOIN (SELECT r.id, ${FIRE_AT} AS fire_at, u.email AS notify_email, u.lang AS notify_lang, i.content AS item_content, u.reminder_email AS email_reminders
                 FROM sync.reminders r
                 JOIN sync.items i ON i.id = r.item_id
                 JOIN sync.users u ON u.id = r.notify_uid
                WHERE r.type IN ('absolute', 'relative') AND NOT r.is_deleted AND NOT i.is_deleted AND NOT i.checked) d ON d.id = r.id
        WHERE d.fire_at <= now() AND (r.fired_for IS NULL OR r.fired_for < d.fire_at)
        ORDER BY d.fire_at
        LIMIT $1
        FOR UPDATE OF r SKIP LOCKED`,
      [limit],
    );
    if (rows.length === 0) return [];
    await manager.query(
      `UPDATE sync.reminders r SET fired_for = f.fire_at FROM unnest($1::bigint[], $2::timestamptz[]) AS f (id, fire_at) WHERE r.id = f.id`,
      [rows.map((row) => row.id), rows.map((row) => row.fire_at)],
    );
    return rows.map(({ fire_at: fireAt, notify_email: to, notify_lang: lang, item_content: taskContent, email_reminders: emailReminders, ...reminder }) => ({
      reminder,
      fireAt: new Date(fireAt),
      ...(mailed(reminder.service, emailReminders) ? { mail: { to, lang, taskContent } } : {}),
    }));
  }
}

/**
 * Whether a fired reminder is also mailed: a legacy client's own `service` decides for its
 * reminder (email: yes; push, mobile: no); a reminder without one (every current client's)
 * follows its user's `reminder_email` setting (user_settings, sync-interface "User settings").
 */
export function mailed(service: string | null | undefined, emailReminders: boolean): boolean {
  return service === null || service === undefined ? emailReminders : service === 'email';
}
