import { randomUUID } from 'node:crypto';
import type { EventEnvelope, EventSubject } from '@doable/contracts-common';
import { NotificationsEvents } from '@doable/contracts-notifications';
import { type NotificationPerson, SyncEvents, type WorkspaceInvitationAnswered, type WorkspaceInvitationSent } from '@doable/contracts-sync';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database, EventConsumers } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import { InProcessBroker, InProcessEventBus } from '@doable/shared-transport';
import type { DataSource } from 'typeorm';
import { LiveNotificationRepository } from '../src/store/live-notification.repository';
import { notificationsMigrations } from '../src/migrations';
import { notificationsService } from '../src/notifications.service-definition';
import { NotificationProducersConsumer } from '../src/producers/notification-producers.consumer';

const person = (id: string, name: string): NotificationPerson => ({ id, email: `${name}@example.test`, full_name: name, image_id: null });
const [ANN, BOB, CAT, DAN] = [person('201', 'ann'), person('202', 'bob'), person('203', 'cat'), person('204', 'dan')];

interface StoredNotification {
  id: string;
  user_id: string;
  notification_key: string;
  notification_type: string;
  from_uid: string;
  data: Record<string, unknown>;
  is_deleted: boolean;
  seq: string;
}

describe('workspace live notifications produced from sync events (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let consumers: EventConsumers;
  const bus = new InProcessEventBus(new InProcessBroker(), '');
  /** The invitations handed to the mailer (how it mails is the mail spec's). */
  const mailed: WorkspaceInvitationSent[] = [];

  async function publish<P>(event: EventSubject<P>, payload: P, envelope?: EventEnvelope): Promise<EventEnvelope> {
    const sent = envelope ?? { id: randomUUID(), subject: event.name, occurredAt: new Date().toISOString(), payload };
    await bus.publish(sent);
    return sent;
  }

  const notificationsOf = (userId: string) =>
    dataSource.query<StoredNotification[]>(
      `SELECT id::text, user_id::text, notification_key, notification_type, from_uid::text, data, is_deleted, seq::text
         FROM notifications.live_notifications WHERE user_id = $1 ORDER BY id`,
      [userId],
    );
  const typesOf = async (userId: string) => (await notificationsOf(userId)).map((row) => row.notification_type);
  const lastDelivered = async () =>
    (
      await dataSource.query<Array<{ payload: { userIds: string[] } }>>(`SELECT payload FROM notifications.outbox WHERE subject = $1 ORDER BY id DESC LIMIT 1`, [
        NotificationsEvents.delivered.name,
      ])
    )[0]?.payload;
  const clear = () => dataSource.query(`DELETE FROM notifications.live_notifications`);

  beforeAll(async () => {
    database = await createTestDatabase('workspace_producers');
    dataSource = createServiceDataSource({ schema: 'notifications', url: database.url, poolSize: 4, applicationName: 'test', migrations: notificationsMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const logger = createLogger('test', 'silent');
    const db = new Database(dataSource, 'notifications', new OutboxRelay(dataSource, 'notifications', { publish: () => Promise.resolve() }, logger, 3_600_000));
    consumers = new EventConsumers(notificationsService, bus, logger, db);
    new NotificationProducersConsumer(consumers, new LiveNotificationRepository(), {
      sendInvitation: () => Promise.resolve(),
      sendWorkspaceInvitation: (invitation) => {
        mailed.push(invitation);
        return Promise.resolve();
      },
    }, { mail: () => Promise.resolve() });
    await consumers.start();
  });

  afterAll(async () => {
    await consumers.stop();
    await dataSource.destroy();
    await database.drop();
  });

  const sent = (overrides: Partial<WorkspaceInvitationSent> = {}): WorkspaceInvitationSent => ({
    invitationId: '8900000001',
    invitationSecret: 'secret-one-0123456789',
    workspaceId: '8800000001',
    workspaceName: 'Acme',
    inviter: ANN,
    inviteeEmail: BOB.email,
    inviteeId: BOB.id,
    role: 'MEMBER',
    ...overrides,
  });
  const answered = (overrides: Partial<WorkspaceInvitationAnswered> = {}): WorkspaceInvitationAnswered => ({
    invitationId: '8900000001',
    workspaceId: '8800000001',
    workspaceName: 'Acme',
    inviterId: ANN.id,
    inviteeEmail: BOB.email,
    actor: BOB,
    answer: 'accepted',
    adminIds: [ANN.id, DAN.id],
    planType: 'STARTER',
    ...overrides,
  });

  it('gives the invitee workspace_invitation_created with the secret; sent again, the same notification is refreshed; none (a mail) for an address without an account', async () => {
    await clear();
    await publish(SyncEvents.workspaceInvitationSent, sent());
    const [first] = await notificationsOf(BOB.id);
    expect(first).toMatchObject({
      notification_key: 'workspace_invitation_created:8900000001',
      notification_type: 'workspace_invitation_created',
      from_uid: ANN.id,
      data: { from_user: ANN, workspace_id: 8800000001, workspace_name: 'Acme', invitation_id: '8900000001', invitation_secret: 'secret-one-0123456789', state: 'invited' },
    });
    expect(await lastDelivered()).toEqual({ userIds: [BOB.id] });
    await publish(SyncEvents.workspaceInvitationSent, sent({ invitationSecret: 'secret-two-0123456789' }));
    const refreshed = await notificationsOf(BOB.id);
    expect(refreshed).toHaveLength(1);
    expect(refreshed[0]).toMatchObject({ id: first.id, data: { invitation_secret: 'secret-two-0123456789' } });
    expect(BigInt(refreshed[0].seq)).toBeGreaterThan(BigInt(first.seq));

    mailed.length = 0;
    await publish(SyncEvents.workspaceInvitationSent, sent({ invitationId: '8900000009', inviteeId: null, inviteeEmail: 'nobody@example.test' }));
    expect(await dataSource.query(`SELECT 1 FROM notifications.live_notifications WHERE notification_key LIKE '%8900000009%'`)).toEqual([]);
    // Mailed instead: the only way to reach an address without an account.
    expect(mailed).toEqual([expect.objectContaining({ invitationId: '8900000009', inviteeEmail: 'nobody@example.test' })]);
  });

  it('an acceptance tells the inviter (and the admins of a paid workspace), and moves the invitee’s notification to accepted; redelivery adds nothing', async () => {
    await clear();
    await publish(SyncEvents.workspaceInvitationSent, sent());
    await publish(SyncEvents.workspaceInvitationAnswered, answered());
    expect(await notificationsOf(ANN.id)).toEqual([
      expect.objectContaining({
        notification_type: 'workspace_invitation_accepted',
        from_uid: BOB.id,
        data: { from_user: BOB, workspace_id: 8800000001, workspace_name: 'Acme', invitation_id: '8900000001' },
      }),
    ]);
    // A starter workspace's other admins are not told.
    expect(await typesOf(DAN.id)).toEqual([]);
    expect((await notificationsOf(BOB.id))[0].data['state']).toBe('accepted');

    await publish(SyncEvents.workspaceInvitationSent, sent({ invitationId: '8900000002', inviteeId: CAT.id, inviteeEmail: CAT.email }));
    const paid = await publish(SyncEvents.workspaceInvitationAnswered, answered({ invitationId: '8900000002', inviteeEmail: CAT.email, actor: CAT, planType: 'BUSINESS', adminIds: [ANN.id, DAN.id, CAT.id] }));
    expect(await typesOf(DAN.id)).toEqual(['workspace_invitation_accepted']);
    expect(await typesOf(ANN.id)).toEqual(['workspace_invitation_accepted', 'workspace_invitation_accepted']);
    expect(await lastDelivered()).toEqual({ userIds: [CAT.id, ANN.id, DAN.id].sort() });
    // The same event again, and the same fact in a new event: nothing more.
    await publish(SyncEvents.workspaceInvitationAnswered, paid.payload as WorkspaceInvitationAnswered, paid);
    await publish(SyncEvents.workspaceInvitationAnswered, paid.payload as WorkspaceInvitationAnswered);
    expect(await typesOf(DAN.id)).toEqual(['workspace_invitation_accepted']);
  });

  it('a rejection tells the inviter; a deleted invitation deletes the invitee’s notification', async () => {
    await clear();
    await publish(SyncEvents.workspaceInvitationSent, sent());
    await publish(SyncEvents.workspaceInvitationAnswered, answered({ answer: 'rejected', planType: 'BUSINESS' }));
    expect(await notificationsOf(ANN.id)).toEqual([
      expect.objectContaining({ notification_type: 'workspace_invitation_rejected', data: { from_user: BOB, workspace_id: 8800000001, workspace_name: 'Acme', invitation_id: '8900000001' } }),
    ]);
    expect(await typesOf(DAN.id)).toEqual([]);
    expect((await notificationsOf(BOB.id))[0].data['state']).toBe('rejected');

    await publish(SyncEvents.workspaceInvitationSent, sent({ invitationId: '8900000003', inviteeId: CAT.id, inviteeEmail: CAT.email }));
    await publish(SyncEvents.workspaceInvitationAnswered, answered({ invitationId: '8900000003', inviteeEmail: CAT.email, actor: ANN, answer: 'deleted' }));
    expect(await notificationsOf(CAT.id)).toEqual([expect.objectContaining({ notification_type: 'workspace_invitation_created', is_deleted: true })]);
    expect(await typesOf(ANN.id)).toEqual(['workspace_invitation_rejected']);
    expect(await lastDelivered()).toEqual({ userIds: [CAT.id] });
  });

  it('removed_from_workspace to the removed user, not when they left', async () => {
    await clear();
    await publish(SyncEvents.workspaceUserRemoved, { workspaceId: '8800000001', workspaceName: 'Acme', userId: BOB.id, removedBy: null });
    expect(await typesOf(BOB.id)).toEqual([]);
    await publish(SyncEvents.workspaceUserRemoved, { workspaceId: '8800000001', workspaceName: 'Acme', userId: BOB.id, removedBy: BOB });
    expect(await typesOf(BOB.id)).toEqual([]);
    const removal = await publish(SyncEvents.workspaceUserRemoved, { workspaceId: '8800000001', workspaceName: 'Acme', userId: BOB.id, removedBy: ANN });
    await publish(SyncEvents.workspaceUserRemoved, removal.payload as never, removal);
    expect(await notificationsOf(BOB.id)).toEqual([
      expect.objectContaining({ notification_type: 'removed_from_workspace', from_uid: ANN.id, data: { from_user: ANN, workspace_id: 8800000001, workspace_name: 'Acme' } }),
    ]);
  });

  it('workspace_deleted to every member but the one who deleted it, once', async () => {
    await clear();
    const payload = { workspaceId: '8800000002', workspaceName: 'Gone', actor: ANN, memberIds: [ANN.id, BOB.id, CAT.id] };
    await publish(SyncEvents.workspaceDeleted, payload);
    await publish(SyncEvents.workspaceDeleted, payload);
    expect(await typesOf(ANN.id)).toEqual([]);
    expect(await notificationsOf(BOB.id)).toEqual([
      expect.objectContaining({ notification_type: 'workspace_deleted', notification_key: `workspace_deleted:8800000002:${BOB.id}`, data: { from_user: ANN, workspace_id: 8800000002, workspace_name: 'Gone' } }),
    ]);
    expect(await typesOf(CAT.id)).toEqual(['workspace_deleted']);
  });

  it('workspace_user_joined_by_domain to the admins; a join by link tells no one', async () => {
    await clear();
    await publish(SyncEvents.workspaceUserJoined, { workspaceId: '8800000001', workspaceName: 'Acme', user: CAT, role: 'MEMBER', via: 'invite_code', adminIds: [ANN.id] });
    expect(await typesOf(ANN.id)).toEqual([]);
    await publish(SyncEvents.workspaceUserJoined, { workspaceId: '8800000001', workspaceName: 'Acme', user: CAT, role: 'MEMBER', via: 'domain', adminIds: [ANN.id, DAN.id] });
    expect(await notificationsOf(ANN.id)).toEqual([
      expect.objectContaining({ notification_type: 'workspace_user_joined_by_domain', from_uid: CAT.id, data: { from_user: CAT, workspace_id: 8800000001, workspace_name: 'Acme' } }),
    ]);
    expect(await typesOf(DAN.id)).toEqual(['workspace_user_joined_by_domain']);
  });

  it('project_archived to the collaborators of a workspace project but the one who archived it', async () => {
    await clear();
    await publish(SyncEvents.workspaceProjectArchived, { projectId: '6600000001', projectName: 'Launch', workspaceId: '8800000001', actor: BOB, memberIds: [ANN.id, BOB.id] });
    expect(await typesOf(BOB.id)).toEqual([]);
    expect(await notificationsOf(ANN.id)).toEqual([
      expect.objectContaining({ notification_type: 'project_archived', from_uid: BOB.id, data: { from_user: BOB, project_id: '6600000001', project_name: 'Launch' } }),
    ]);
  });
});
