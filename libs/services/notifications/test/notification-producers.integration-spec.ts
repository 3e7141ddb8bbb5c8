import { randomUUID } from 'node:crypto';
import type { EventEnvelope, EventSubject } from '@doable/contracts-common';
import { NotificationsEvents } from '@doable/contracts-notifications';
import { personWithoutAccount, SyncEvents, type NotificationPerson, type ShareInvitationBlocked, type ShareInvitationSent } from '@doable/contracts-sync';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database, EventConsumers } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import { InProcessBroker, InProcessEventBus } from '@doable/shared-transport';
import type { DataSource } from 'typeorm';
import { CommandLogRepository } from '../src/command-log.repository';
import type { InvitationMailer } from '../src/mail/invitation-mailer';
import { LiveNotificationRepository } from '../src/store/live-notification.repository';
import { LiveNotificationsService } from '../src/live-notifications.service';
import { notificationsMigrations } from '../src/migrations';
import { notificationsService } from '../src/notifications.service-definition';
import { NotificationProducersConsumer } from '../src/producers/notification-producers.consumer';

const person = (id: string, name: string): NotificationPerson => ({ id, email: `${name}@example.test`, full_name: name, image_id: null });
const [ANN, BOB, CAT, DAN] = [person('101', 'ann'), person('102', 'bob'), person('103', 'cat'), person('104', 'dan')];

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

/** Records what it was asked to send: the hook's contract is when it is called, not how it mails. */
class RecordingMailer implements InvitationMailer {
  readonly sent: ShareInvitationSent[] = [];
  sendInvitation(invitation: ShareInvitationSent): Promise<void> {
    this.sent.push(invitation);
    return Promise.resolve();
  }
  sendWorkspaceInvitation(): Promise<void> {
    return Promise.resolve();
  }
}

describe('live notifications produced from sync events (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let consumers: EventConsumers;
  const bus = new InProcessEventBus(new InProcessBroker(), '');
  const mailer = new RecordingMailer();

  /** Publishes an event as the bus delivers it; the envelope is answered so it can be delivered again. */
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
  const deliveredCount = async () =>
    (await dataSource.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM notifications.outbox WHERE subject = $1`, [NotificationsEvents.delivered.name]))[0].count;
  const lastDelivered = async () =>
    (
      await dataSource.query<Array<{ payload: { userIds: string[] } }>>(`SELECT payload FROM notifications.outbox WHERE subject = $1 ORDER BY id DESC LIMIT 1`, [
        NotificationsEvents.delivered.name,
      ])
    )[0]?.payload;
  const clear = () => dataSource.query(`DELETE FROM notifications.live_notifications`);

  beforeAll(async () => {
    database = await createTestDatabase('notification_producers');
    dataSource = createServiceDataSource({ schema: 'notifications', url: database.url, poolSize: 4, applicationName: 'test', migrations: notificationsMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const logger = createLogger('test', 'silent');
    // The relay never runs here: delivered events stay in the outbox, where the test reads them.
    const db = new Database(dataSource, 'notifications', new OutboxRelay(dataSource, 'notifications', { publish: () => Promise.resolve() }, logger, 3_600_000));
    consumers = new EventConsumers(notificationsService, bus, logger, db);
    new NotificationProducersConsumer(consumers, new LiveNotificationRepository(), mailer, { mail: () => Promise.resolve() });
    await consumers.start();
  });

  afterAll(async () => {
    await consumers.stop();
    await dataSource.destroy();
    await database.drop();
  });

  describe('invitations', () => {
    const invitation = (overrides: Partial<ShareInvitationSent> = {}): ShareInvitationSent => ({
      invitationId: '7700000001',
      invitationSecret: 'secret-one-0123456789',
      projectId: '900',
      projectName: 'Garden',
      inviter: ANN,
      inviteeEmail: 'bob@example.test',
      inviteeId: BOB.id,
      role: 'READ_WRITE',
      message: 'come help',
      ...overrides,
    });

    it('gives the receiver share_invitation_sent with the secret; sending it again refreshes that notification instead of adding one', async () => {
      await clear();
      await publish(SyncEvents.shareInvitationSent, invitation());
      const [first] = await notificationsOf(BOB.id);
      expect(first).toMatchObject({
        notification_type: 'share_invitation_sent',
        from_uid: ANN.id,
        data: { from_user: ANN, project_name: 'Garden', invitation_id: '7700000001', invitation_secret: 'secret-one-0123456789', state: 'invited' },
      });
      expect(await typesOf(ANN.id)).toEqual([]);
      expect(await lastDelivered()).toEqual({ userIds: [BOB.id] });

      await dataSource.query(`UPDATE notifications.live_notifications SET is_unread = false WHERE id = $1`, [first.id]);
      await publish(SyncEvents.shareInvitationSent, invitation({ invitationSecret: 'secret-two-0123456789' }));
      const refreshed = await notificationsOf(BOB.id);
      expect(refreshed).toHaveLength(1);
      expect(refreshed[0]).toMatchObject({ id: first.id, data: { invitation_secret: 'secret-two-0123456789', state: 'invited' } });
      expect(BigInt(refreshed[0].seq)).toBeGreaterThan(BigInt(first.seq));
      expect((await dataSource.query<Array<{ is_unread: boolean }>>(`SELECT is_unread FROM notifications.live_notifications WHERE id = $1`, [first.id]))[0].is_unread).toBe(true);
    });

    it('mails (through the hook) an invitation to an address without an account, and notifies no one', async () => {
      await clear();
      const before = await deliveredCount();
      await publish(SyncEvents.shareInvitationSent, invitation({ invitationId: '7700000009', inviteeId: null, inviteeEmail: 'nobody@example.test' }));
      expect(mailer.sent.map((sent) => sent.invitationId)).toEqual(['7700000009']);
      expect(await dataSource.query(`SELECT 1 FROM notifications.live_notifications`)).toEqual([]);
      expect(await deliveredCount()).toBe(before);
    });

    it('tells the sender of an acceptance and moves the receiver’s notification to accepted, under a new seq', async () => {
      await clear();
      await publish(SyncEvents.shareInvitationSent, invitation());
      const [sent] = await notificationsOf(BOB.id);
      await publish(SyncEvents.shareInvitationAnswered, {
        invitationId: '7700000001',
        projectId: '900',
        projectName: 'Garden',
        inviterId: ANN.id,
        inviteeEmail: BOB.email,
        inviteeId: BOB.id,
        actor: BOB,
        answer: 'accepted',
      });
      expect(await notificationsOf(ANN.id)).toEqual([
        expect.objectContaining({
          notification_type: 'share_invitation_accepted',
          from_uid: BOB.id,
          data: { from_user: BOB, project_name: 'Garden', invitation_id: '7700000001', project_id: '900' },
        }),
      ]);
      const [answered] = await notificationsOf(BOB.id);
      expect(answered.data['state']).toBe('accepted');
      expect(BigInt(answered.seq)).toBeGreaterThan(BigInt(sent.seq));
      expect(await lastDelivered()).toEqual({ userIds: [ANN.id, BOB.id] });
    });

    it('tells the sender of a rejection (with reject_email), and deletes the receiver’s notification of a deleted invitation', async () => {
      await clear();
      await publish(SyncEvents.shareInvitationSent, invitation({ invitationId: '7700000002' }));
      await publish(SyncEvents.shareInvitationAnswered, {
        invitationId: '7700000002', projectId: '900', projectName: 'Garden', inviterId: ANN.id, inviteeEmail: BOB.email, inviteeId: BOB.id, actor: BOB, answer: 'rejected',
      });
      expect(await notificationsOf(ANN.id)).toEqual([
        expect.objectContaining({
          notification_type: 'share_invitation_rejected',
          data: { from_user: BOB, project_name: 'Garden', invitation_id: '7700000002', project_id: '900', reject_email: BOB.email },
        }),
      ]);
      expect((await notificationsOf(BOB.id))[0].data['state']).toBe('rejected');

      await publish(SyncEvents.shareInvitationSent, invitation({ invitationId: '7700000003', inviteeId: CAT.id, inviteeEmail: CAT.email }));
      await publish(SyncEvents.shareInvitationAnswered, {
        invitationId: '7700000003', projectId: '900', projectName: 'Garden', inviterId: ANN.id, inviteeEmail: CAT.email, inviteeId: CAT.id, actor: ANN, answer: 'deleted',
      });
      expect(await notificationsOf(CAT.id)).toEqual([expect.objectContaining({ notification_type: 'share_invitation_sent', is_deleted: true })]);
      expect(await typesOf(ANN.id)).toEqual(['share_invitation_rejected']);
      expect(await lastDelivered()).toEqual({ userIds: [CAT.id] });
    });

    it('tells the sender of a decline from the mail of an address without an account as of any other (the address as from_user and reject_email)', async () => {
      await clear();
      const stranger = 'stranger@example.test';
      // A stranger's invitation is mailed, not notified: no receiver's notification to move.
      await publish(SyncEvents.shareInvitationSent, invitation({ invitationId: '7700000004', inviteeId: null, inviteeEmail: stranger }));
      const answered = {
        invitationId: '7700000004', projectId: '900', projectName: 'Garden', inviterId: ANN.id, inviteeEmail: stranger, inviteeId: null, actor: personWithoutAccount(stranger), answer: 'rejected' as const,
      };
      const envelope = await publish(SyncEvents.shareInvitationAnswered, answered);
      await publish(SyncEvents.shareInvitationAnswered, answered, envelope);
      const from = { id: '0', email: stranger, full_name: stranger, image_id: null };
      expect(await notificationsOf(ANN.id)).toEqual([
        expect.objectContaining({
          notification_type: 'share_invitation_rejected',
          notification_key: 'share_invitation_rejected:7700000004',
          from_uid: '0',
          data: { from_user: from, project_name: 'Garden', invitation_id: '7700000004', project_id: '900', reject_email: stranger },
        }),
      ]);
      expect(await lastDelivered()).toEqual({ userIds: [ANN.id] });
    });

    it('lists them with the common fields and the type’s own', async () => {
      await clear();
      await publish(SyncEvents.shareInvitationSent, invitation());
      const live = new LiveNotificationsService(new Database(dataSource, 'notifications', new OutboxRelay(dataSource, 'notifications', { publish: () => Promise.resolve() }, createLogger('test', 'silent'))), new CommandLogRepository());
      const { live_notifications: [listed] } = await live.list(BOB.id, 0);
      expect(listed).toEqual({
        id: expect.stringMatching(/^[0-9]+$/),
        created_at: expect.any(String),
        from_uid: ANN.id,
        notification_key: 'share_invitation_sent:7700000001',
        notification_type: 'share_invitation_sent',
        seq_no: Number(listed.id),
        is_unread: true,
        is_deleted: false,
        from_user: ANN,
        project_name: 'Garden',
        invitation_id: '7700000001',
        invitation_secret: 'secret-one-0123456789',
        state: 'invited',
      });
    });
  });

  describe('invitations blocked by the collaborator limit', () => {
    const blocked = (overrides: Partial<ShareInvitationBlocked> = {}): ShareInvitationBlocked => ({
      projectId: '901',
      projectName: 'Orchard',
      inviter: BOB,
      inviteeEmail: 'dan@example.test',
      ownerId: ANN.id,
      maxCount: 2,
      ...overrides,
    });
    const expected = (receiver: NotificationPerson, inviter: NotificationPerson) =>
      expect.objectContaining({
        user_id: receiver.id,
        notification_type: 'share_invitation_blocked_by_project_limit',
        from_uid: inviter.id,
        data: { from_user: inviter, project_id: '901', project_name: 'Orchard', invitee_email: 'dan@example.test', max_count: 2 },
      });

    it('tells the member who tried, whose own action it was, and the owner whose plan sets the limit', async () => {
      await clear();
      const envelope = await publish(SyncEvents.shareInvitationBlocked, blocked());
      expect(await notificationsOf(BOB.id)).toEqual([expected(BOB, BOB)]);
      expect(await notificationsOf(ANN.id)).toEqual([expected(ANN, BOB)]);
      expect(await lastDelivered()).toEqual({ userIds: [ANN.id, BOB.id] });

      // The same event delivered again makes nothing more.
      await publish(SyncEvents.shareInvitationBlocked, envelope.payload as ShareInvitationBlocked, envelope);
      expect(await notificationsOf(BOB.id)).toHaveLength(1);
      expect(await notificationsOf(ANN.id)).toHaveLength(1);
    });

    it('tells an owner who tried once, and each blocked attempt on its own', async () => {
      await clear();
      await publish(SyncEvents.shareInvitationBlocked, blocked({ inviter: ANN }));
      await publish(SyncEvents.shareInvitationBlocked, blocked({ inviter: ANN }));
      expect(await notificationsOf(ANN.id)).toEqual([expected(ANN, ANN), expected(ANN, ANN)]);
      expect(await lastDelivered()).toEqual({ userIds: [ANN.id] });
    });
  });

  describe('collaborators leaving', () => {
    it('tells the remaining members that someone left, not the one who left', async () => {
      await clear();
      await publish(SyncEvents.collaboratorLeft, { projectId: '900', projectName: 'Garden', userId: BOB.id, userName: 'bob', removedBy: null, memberIds: [ANN.id, CAT.id] });
      for (const member of [ANN.id, CAT.id]) {
        expect(await notificationsOf(member)).toEqual([expect.objectContaining({ notification_type: 'user_left_project', from_uid: BOB.id, data: { project_id: '900' } })]);
      }
      expect(await typesOf(BOB.id)).toEqual([]);
    });

    it('tells the remaining members and the removed user of a removal, not the one who removed', async () => {
      await clear();
      await publish(SyncEvents.collaboratorLeft, { projectId: '900', projectName: 'Garden', userId: BOB.id, userName: 'bob', removedBy: ANN.id, memberIds: [ANN.id, CAT.id] });
      for (const receiver of [BOB.id, CAT.id]) {
        expect(await notificationsOf(receiver)).toEqual([
          expect.objectContaining({ notification_type: 'user_removed_from_project', from_uid: ANN.id, data: { project_id: '900', removed_name: 'bob', removed_uid: BOB.id } }),
        ]);
      }
      expect(await typesOf(ANN.id)).toEqual([]);
      expect(await lastDelivered()).toEqual({ userIds: [BOB.id, CAT.id] });
    });
  });

  describe('assigned tasks', () => {
    const fields = { item_id: '6000000001', item_content: 'Water the roses', project_id: '900', assigned_by_uid: ANN.id, responsible_uid: BOB.id };

    it('tells the responsible user and the creator when the creator is not the assigner; never the assigner', async () => {
      await clear();
      await publish(SyncEvents.itemAssigned, { itemId: '6000000001', itemContent: 'Water the roses', projectId: '900', assignedBy: ANN.id, responsibleUid: BOB.id, creatorId: CAT.id });
      expect(await notificationsOf(BOB.id)).toEqual([expect.objectContaining({ notification_type: 'item_assigned', from_uid: ANN.id, data: fields })]);
      expect(await notificationsOf(CAT.id)).toEqual([expect.objectContaining({ notification_type: 'item_assigned', data: fields })]);
      expect(await typesOf(ANN.id)).toEqual([]);

      await clear();
      await publish(SyncEvents.itemAssigned, { itemId: '6000000001', itemContent: 'Water the roses', projectId: '900', assignedBy: ANN.id, responsibleUid: ANN.id, creatorId: ANN.id });
      expect(await dataSource.query(`SELECT 1 FROM notifications.live_notifications`)).toEqual([]);
    });

    it('tells the assigner of a completion, and the responsible user when someone else completed it', async () => {
      await clear();
      await publish(SyncEvents.itemCompletionChanged, { itemId: '6000000001', itemContent: 'Water the roses', projectId: '900', completed: true, actorId: CAT.id, assignedBy: ANN.id, responsibleUid: BOB.id });
      expect(await typesOf(ANN.id)).toEqual(['item_completed']);
      expect(await notificationsOf(BOB.id)).toEqual([expect.objectContaining({ notification_type: 'item_completed', from_uid: CAT.id, data: fields })]);
      expect(await typesOf(CAT.id)).toEqual([]);

      await publish(SyncEvents.itemCompletionChanged, { itemId: '6000000001', itemContent: 'Water the roses', projectId: '900', completed: false, actorId: BOB.id, assignedBy: ANN.id, responsibleUid: BOB.id });
      expect(await typesOf(ANN.id)).toEqual(['item_completed', 'item_uncompleted']);
      expect(await typesOf(BOB.id)).toEqual(['item_completed']);
    });
  });

  describe('comments', () => {
    it('tells every member but the author, or only the members named to notify', async () => {
      await clear();
      await publish(SyncEvents.noteAdded, { noteId: '5000000001', noteContent: 'Done?', itemId: '6000000001', projectId: '900', actorId: ANN.id, memberIds: [ANN.id, BOB.id, CAT.id], uidsToNotify: null });
      expect(await notificationsOf(BOB.id)).toEqual([
        expect.objectContaining({ notification_type: 'note_added', from_uid: ANN.id, data: { item_id: '6000000001', note_id: '5000000001', note_content: 'Done?', project_id: '900' } }),
      ]);
      expect(await typesOf(CAT.id)).toEqual(['note_added']);
      expect(await typesOf(ANN.id)).toEqual([]);

      await clear();
      await publish(SyncEvents.noteAdded, { noteId: '5000000002', noteContent: 'Cat?', itemId: '6000000001', projectId: '900', actorId: ANN.id, memberIds: [ANN.id, BOB.id, CAT.id], uidsToNotify: [CAT.id, DAN.id, ANN.id] });
      expect(await typesOf(CAT.id)).toEqual(['note_added']);
      expect(await typesOf(BOB.id)).toEqual([]);
      expect(await typesOf(DAN.id)).toEqual([]);
      expect(await lastDelivered()).toEqual({ userIds: [CAT.id] });
    });
  });

  describe('goals and karma', () => {
    it('tells the user, from themselves, once per period and once per level', async () => {
      await clear();
      const daily = { userId: BOB.id, goal: 'daily' as const, count: 5, target: 5, period: '2026-11-25' };
      await publish(SyncEvents.goalReached, daily);
      await publish(SyncEvents.goalReached, { ...daily, goal: 'weekly', count: 25, target: 25, period: '2026-11-23' });
      await publish(SyncEvents.karmaLevelReached, { userId: BOB.id, level: 2, karma: 500 });
      expect(await notificationsOf(BOB.id)).toEqual([
        expect.objectContaining({ notification_type: 'daily_goal_reached', from_uid: BOB.id, data: { count: 5, goal: 5 } }),
        expect.objectContaining({ notification_type: 'weekly_goal_reached', from_uid: BOB.id, data: { count: 25, goal: 25 } }),
        expect.objectContaining({ notification_type: 'karma_level', from_uid: BOB.id, data: { karma_level: 2, karma: 500 } }),
      ]);

      // Another event for the same day and level (not a redelivery: a new event id) adds nothing.
      const before = await deliveredCount();
      await publish(SyncEvents.goalReached, { ...daily, count: 6 });
      await publish(SyncEvents.karmaLevelReached, { userId: BOB.id, level: 2, karma: 501 });
      expect(await notificationsOf(BOB.id)).toHaveLength(3);
      expect(await deliveredCount()).toBe(before);
    });
  });

  describe('redelivery', () => {
    it('makes no second notification and no second delivered event from the same event', async () => {
      await clear();
      const envelope = await publish(SyncEvents.collaboratorLeft, { projectId: '900', projectName: 'Garden', userId: BOB.id, userName: 'bob', removedBy: null, memberIds: [ANN.id] });
      const before = await deliveredCount();
      await publish(SyncEvents.collaboratorLeft, envelope.payload as never, envelope);
      expect(await typesOf(ANN.id)).toEqual(['user_left_project']);
      expect(await deliveredCount()).toBe(before);

      // Even past the consumer's own record (another consumer, or the record pruned), the key is taken.
      await dataSource.query(`DELETE FROM notifications.processed_events WHERE event_id = $1`, [envelope.id]);
      await publish(SyncEvents.collaboratorLeft, envelope.payload as never, envelope);
      expect(await typesOf(ANN.id)).toEqual(['user_left_project']);
      expect(await deliveredCount()).toBe(before);
    });
  });
});
