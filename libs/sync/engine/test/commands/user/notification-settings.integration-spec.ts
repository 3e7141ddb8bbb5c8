import { randomUUID } from 'node:crypto';
import { SCOPES, type Principal } from '@doable/contracts-common';
import { notificationSettingsView, type NotificationSettingsChanged } from '@doable/contracts-sync';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import { PlanLimitsRepository, ProjectMembersRepository, syncMigrations, UserProfileRepository, WorkspaceMembersRepository } from '@doable/sync-domain';
import type { DataSource } from 'typeorm';
import { CommandExecutor } from '../../../src/command-executor';
import { UpdateNotificationSettingCommand } from '../../../src/commands/user/notification-setting.command';

const ANN = '7601';
const BOB = '7602';

/**
 * The collaboration notification settings against a real PostgreSQL: update_notification_setting
 * (the internal command the endpoints run) writes the caller's own row only, moves
 * settings_version (so the next sync carries them), and tells the notifications service the
 * settings whole (the event it mails by; email off by default).
 */
describe('notification settings (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let executor: CommandExecutor;
  const profiles = new UserProfileRepository();
  const principal = (userId: string, scopes: readonly string[] = SCOPES): Principal => ({ userId, scopes: [...scopes] as Principal['scopes'], appId: null, tokenKind: 'personal' });
  const update = async (userId: string, args: Record<string, unknown>, scopes?: readonly string[]) => {
    const uuid = randomUUID();
    return (await executor.runInternal(principal(userId, scopes), { type: 'update_notification_setting', uuid, args })).syncStatus[uuid];
  };
  const changes = async () =>
    (await dataSource.query<Array<{ payload: NotificationSettingsChanged }>>(`SELECT payload FROM sync.outbox WHERE subject = 'sync.evt.notification-settings-changed.v1' ORDER BY id`)).map((r) => r.payload);
  const row = async (userId: string) =>
    (await dataSource.query<Array<{ notification_settings: unknown; settings_version: string }>>(`SELECT notification_settings, settings_version::text FROM sync.users WHERE id = $1`, [userId]))[0];

  beforeAll(async () => {
    database = await createTestDatabase('notification_settings');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    for (const [id, email] of [[ANN, 'ann@settings.test'], [BOB, 'bob@settings.test']]) {
      await dataSource.transaction((manager) => profiles.createWithInbox(manager, { id, email, fullName: `User ${id}`, timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }));
    }
    const logger = createLogger('test', 'silent');
    const db = new Database(dataSource, 'sync', new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger));
    executor = new CommandExecutor(db, profiles, [], logger, [new UpdateNotificationSettingCommand(profiles)], new ProjectMembersRepository(), new PlanLimitsRepository(), new WorkspaceMembersRepository());
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('defaults to push on, email off', async () => {
    const ann = (await profiles.find(dataSource.manager, ANN))!;
    expect(ann.notification_settings).toEqual({});
    expect(notificationSettingsView(ann.notification_settings)['note_added']).toEqual({ notify_email: false, notify_push: true });
    // The daily digest: off, and a mail only.
    expect(notificationSettingsView(ann.notification_settings)['daily_digest']).toEqual({ notify_email: false, notify_push: false });
  });

  it('stores one type and service for the caller only, moving settings_version, and tells the settings whole', async () => {
    const before = await row(ANN);
    expect(await update(ANN, { notification_type: 'note_added', service: 'email', dont_notify: false })).toBe('ok');
    expect(await update(ANN, { notification_type: 'item_assigned', service: 'push', dont_notify: 'true' })).toBe('ok');
    const after = await row(ANN);
    expect(after.notification_settings).toEqual({ note_added: { email: true }, item_assigned: { push: false } });
    expect(BigInt(after.settings_version)).toBeGreaterThan(BigInt(before.settings_version));
    expect((await row(BOB)).notification_settings).toEqual({});
    const told = await changes();
    expect(told).toHaveLength(2);
    expect(told[1]).toEqual({ userId: ANN, version: after.settings_version, email: 'ann@settings.test', lang: 'en', settings: { note_added: { email: true }, item_assigned: { push: false } } });
    expect(BigInt(told[1].version)).toBeGreaterThan(BigInt(told[0].version));

    expect(await update(ANN, { notification_type: 'note_added', service: 'email', dont_notify: 1 })).toBe('ok');
    expect((await changes()).at(-1)!.settings).toEqual({ note_added: { email: false }, item_assigned: { push: false } });
  });

  it('refuses an unknown type or service, a missing argument, and a read-only token, with coded errors, writing nothing', async () => {
    const before = await row(BOB);
    const told = (await changes()).length;
    expect(await update(BOB, { notification_type: 'karma_level', service: 'email', dont_notify: false })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'notification_type' } });
    expect(await update(BOB, { notification_type: 'note_added', service: 'sms', dont_notify: false })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'service' } });
    expect(await update(BOB, { notification_type: 'note_added', service: 'email' })).toMatchObject({ error_tag: 'ARGUMENT_MISSING', error_extra: { argument: 'dont_notify' } });
    // The daily digest is a mail only: no push to choose.
    expect(await update(BOB, { notification_type: 'daily_digest', service: 'push', dont_notify: false })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'service' } });
    expect(await update(BOB, { notification_type: 'note_added', service: 'email', dont_notify: false }, ['data:read'])).toMatchObject({ http_code: 403 });
    expect(await row(BOB)).toEqual(before);
    expect(await changes()).toHaveLength(told);
  });

  it('turns the daily digest on by email, served like the other types', async () => {
    expect(await update(BOB, { notification_type: 'daily_digest', service: 'email', dont_notify: false })).toBe('ok');
    const bob = (await profiles.find(dataSource.manager, BOB))!;
    expect(notificationSettingsView(bob.notification_settings)['daily_digest']).toEqual({ notify_email: true, notify_push: false });
    expect((await changes()).at(-1)).toMatchObject({ userId: BOB, settings: { daily_digest: { email: true } } });
    expect(await update(BOB, { notification_type: 'daily_digest', service: 'email', dont_notify: true })).toBe('ok');
    expect((await row(BOB)).notification_settings).toEqual({ daily_digest: { email: false } });
  });
});
