import { notifiedBy, type NotificationSettingsChanged, type StoredNotificationSettings } from '@doable/contracts-sync';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** The copy of the users' collaboration notification settings this service mails by (see the mail-preferences migration). */
@Injectable()
export class MailPreferencesRepository {
  /** Keeps the newest settings of a user: an older change arriving late changes nothing. */
  async save(manager: EntityManager, changed: NotificationSettingsChanged): Promise<void> {
    await manager.query(
      `INSERT INTO notifications.mail_preferences (user_id, email, lang, settings, version) VALUES ($1, $2, $3, $4::jsonb, $5)
       ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email, lang = EXCLUDED.lang, settings = EXCLUDED.settings, version = EXCLUDED.version
        WHERE notifications.mail_preferences.version < EXCLUDED.version`,
      [changed.userId, changed.email, changed.lang, JSON.stringify(changed.settings), changed.version],
    );
  }

  /** The address follows an email change (auth's event), whatever the settings. */
  async readdress(manager: EntityManager, userId: string, email: string): Promise<void> {
    await manager.query(`UPDATE notifications.mail_preferences SET email = $2 WHERE user_id = $1`, [userId, email]);
  }

  /** Of the users named, those whose settings mail the notification type, and where. */
  async recipients(manager: EntityManager, userIds: readonly string[], type: string): Promise<Array<{ userId: string; email: string; lang: string }>> {
    if (userIds.length === 0) return [];
    const rows = await manager.query<Array<{ user_id: string; email: string; lang: string; settings: StoredNotificationSettings }>>(
      `SELECT user_id::text, email, lang, settings FROM notifications.mail_preferences WHERE user_id = ANY($1::bigint[])`,
      [userIds],
    );
    return rows.filter((row) => notifiedBy(row.settings, type, 'email')).map((row) => ({ userId: row.user_id, email: row.email, lang: row.lang }));
  }
}
