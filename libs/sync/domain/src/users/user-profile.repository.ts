import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { NotificationService, NotificationSettingType } from '@doable/contracts-sync';
import { USER_COLUMNS, type UserPreferenceColumn, type UserProfile, type UserSettingColumn } from './user-profile.model';

export interface NewProfile {
  readonly id: string;
  readonly email: string;
  readonly fullName: string;
  readonly timezone: string;
  readonly lang: string;
  readonly joinedAt: string;
  readonly hasPassword: boolean;
  /** Whether auth-oauth says the address is proven (issue #44). */
  readonly emailVerified?: boolean;
}

/** Users' profiles in the sync schema. Every method runs on the caller's transaction or reader. */
@Injectable()
export class UserProfileRepository {
  /** Creates the profile and its Inbox in one version. Returns false when it already existed. */
  async createWithInbox(manager: EntityManager, profile: NewProfile): Promise<boolean> {
    const [{ version }] = await manager.query<Array<{ version: string }>>(`SELECT nextval('sync.change_version')::text AS version`);
    const inserted = await manager.query<unknown[]>(
      `INSERT INTO sync.users (id, email, full_name, timezone, lang, joined_at, has_password, version, high_water, email_verified)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [profile.id, profile.email, profile.fullName, profile.timezone, profile.lang, profile.joinedAt, profile.hasPassword, version, profile.emailVerified === true],
    );
    if (inserted.length === 0) return false;
    const [inbox] = await manager.query<Array<{ id: string }>>(
      `INSERT INTO sync.projects (owner_id, name, color, child_order, inbox_project, version)
       VALUES ($1, 'Inbox', 'grey', 0, true, $2) RETURNING id::text`,
      [profile.id, version],
    );
    await manager.query(`INSERT INTO sync.project_members (project_id, user_id, role, version) VALUES ($1, $2, 'CREATOR', $3)`, [inbox.id, profile.id, version]);
    await manager.query(`UPDATE sync.users SET inbox_project_id = $2 WHERE id = $1`, [profile.id, inbox.id]);
    return true;
  }

  /** The highest change version visible to the user: all a no-change sync needs to read. */
  async highWater(manager: EntityManager, userId: string): Promise<string | undefined> {
    return (await this.syncPosition(manager, userId))?.high_water;
  }

  /** The high-water mark and the live-notification delivery count: what the reader's gate compares with a token. */
  async syncPosition(manager: EntityManager, userId: string): Promise<{ high_water: string; notification_mark: string } | undefined> {
    const rows = await manager.query<Array<{ high_water: string; notification_mark: string }>>(
      `SELECT high_water::text, notification_mark::text FROM sync.users WHERE id = $1`,
      [userId],
    );
    return rows[0];
  }

  /**
   * The account with this address, if there is one (addresses compared lower-cased) and its
   * address is proven (issue #44): an account whose maker never proved the address is no
   * account of it, so an invitation to it goes by mail as to a stranger.
   */
  async findIdByEmail(manager: EntityManager, email: string): Promise<string | undefined> {
    // The oldest such account: ordered by the column, not by the output `id` (its text, where "10" comes before "9").
    const rows = await manager.query<Array<{ id: string }>>(`SELECT id::text FROM sync.users WHERE lower(email) = lower($1) AND email_verified ORDER BY users.id LIMIT 1`, [email]);
    return rows[0]?.id;
  }

  /** Whether the user's address is proven (workspace domains match only such addresses). */
  async emailVerified(manager: EntityManager, userId: string): Promise<boolean> {
    const rows = await manager.query<Array<{ email_verified: boolean }>>(`SELECT email_verified FROM sync.users WHERE id = $1`, [userId]);
    return rows[0]?.email_verified === true;
  }

  /** Marks the address proven while the profile still has it; true when it was not before. */
  async markEmailVerified(manager: EntityManager, userId: string, email: string): Promise<boolean> {
    const [rows] = await manager.query<[unknown[], number]>(
      `UPDATE sync.users SET email_verified = true WHERE id = $1 AND lower(email) = lower($2) AND NOT email_verified RETURNING id`,
      [userId, email],
    );
    return rows.length > 0;
  }

  async find(manager: EntityManager, userId: string): Promise<UserProfile | undefined> {
    const rows = await manager.query<UserProfile[]>(`SELECT ${USER_COLUMNS} FROM sync.users WHERE id = $1`, [userId]);
    return rows[0];
  }

  /**
   * Locks the user's row for the rest of the transaction. Every write takes this lock first,
   * so one user's changes get versions in commit order and a client never skips a change.
   */
  async lock(manager: EntityManager, userId: string): Promise<UserProfile | undefined> {
    const rows = await manager.query<UserProfile[]>(`SELECT ${USER_COLUMNS} FROM sync.users WHERE id = $1 FOR UPDATE`, [userId]);
    return rows[0];
  }

  /**
   * Writes the given profile, goal and settings columns and stamps the user with the command's
   * version (settings_version too when a setting is written). Column names come from the typed
   * keys only, never from a client. Undefined values are left as they are.
   */
  async update(
    manager: EntityManager,
    userId: string,
    changes: Partial<Record<UserPreferenceColumn | UserSettingColumn, string | number | boolean | readonly number[]>>,
    version: string,
    settingsChanged: boolean,
  ): Promise<void> {
    const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
    const assignments = entries.map(([column], index) => `${column} = $${index + 3}`);
    if (settingsChanged) assignments.push('settings_version = $2');
    await manager.query(
      `UPDATE sync.users SET ${[...assignments, 'version = $2'].join(', ')} WHERE id = $1`,
      [userId, version, ...entries.map(([, value]) => value)],
    );
  }

  /**
   * Records one choice of the collaboration notification settings (type and service are from
   * the typed lists, never free text) and stamps the row as a settings change, so the next
   * incremental sync carries notification_settings with user_settings.
   */
  async setNotificationSetting(manager: EntityManager, userId: string, type: NotificationSettingType, service: NotificationService, notify: boolean, version: string): Promise<void> {
    await manager.query(
      `UPDATE sync.users
          SET notification_settings = jsonb_set(notification_settings, ARRAY[$2::text], COALESCE(notification_settings -> $2::text, '{}'::jsonb) || jsonb_build_object($3::text, $4::boolean)),
              settings_version = $5, version = $5
        WHERE id = $1`,
      [userId, type, service, notify, version],
    );
  }

  /** Sets the user's avatar image id (null: none) and stamps the row with the change's version. */
  async setImage(manager: EntityManager, userId: string, imageId: string | null, version: string): Promise<void> {
    await manager.query(`UPDATE sync.users SET image_id = $2, version = $3 WHERE id = $1`, [userId, imageId, version]);
  }

  /**
   * Marks a change as visible: the acting user, every member of the touched projects and
   * workspaces, and the users named see it in their next incremental sync. Returns their ids
   * (the push channel tells them, see usersChanged).
   */
  async raiseHighWater(
    manager: EntityManager,
    userId: string,
    projectIds: readonly string[],
    version: string,
    userIds: readonly string[] = [],
    workspaceIds: readonly string[] = [],
  ): Promise<string[]> {
    // UPDATE ... RETURNING answers [rows, count] through TypeORM.
    const [rows] = await manager.query<[Array<{ id: string }>, number]>(
      `UPDATE sync.users SET high_water = GREATEST(high_water, $3)
        WHERE id = $1 OR id = ANY($4::bigint[])
           OR id IN (SELECT user_id FROM sync.project_members WHERE project_id = ANY($2::bigint[]) AND state = 'active')
           OR id IN (SELECT user_id FROM sync.workspace_members WHERE workspace_id = ANY($5::bigint[]) AND state = 'active')
        RETURNING id::text`,
      [userId, projectIds, version, userIds, workspaceIds],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Live notifications of these users were created or changed: their delivery count moves, so
   * the reader's gate opens for their next sync that asks for live notifications. The rows are
   * locked in id order, so two of these never deadlock each other.
   */
  async markNotified(manager: EntityManager, userIds: readonly string[]): Promise<void> {
    await manager.query(
      `UPDATE sync.users SET notification_mark = notification_mark + 1
        WHERE id IN (SELECT id FROM sync.users WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE)`,
      [userIds],
    );
  }
}
