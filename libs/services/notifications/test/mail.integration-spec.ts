import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthEvents } from '@doable/contracts-auth';
import type { EventEnvelope, EventSubject } from '@doable/contracts-common';
import { SyncEvents, type ShareInvitationSent, type WorkspaceInvitationSent } from '@doable/contracts-sync';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database, EventConsumers } from '@doable/shared-runtime';
import { createTestDatabase, startTestSmtpServer, type TestDatabase, type TestSmtpServer } from '@doable/shared-testing';
import { InProcessBroker, InProcessEventBus } from '@doable/shared-transport';
import { Registry } from 'prom-client';
import type { DataSource } from 'typeorm';
import { notificationsMigrations } from '../src/migrations';
import { notificationsService } from '../src/notifications.service-definition';
import { LiveNotificationRepository } from '../src/store/live-notification.repository';
import { NotificationProducersConsumer } from '../src/producers/notification-producers.consumer';
import { CollaborationMailer } from '../src/mail/collaboration-mailer';
import { DailyDigestMailer } from '../src/mail/daily-digest-mailer';
import { QueueingInvitationMailer } from '../src/mail/invitation-mailer';
import { MailConsumers } from '../src/mail/mail.consumers';
import { MailOutbox } from '../src/mail/mail-outbox';
import { createMailSender } from '../src/mail/mail-sender';
import type { MailSettings } from '../src/mail/mail-settings';
import { renderMail } from '../src/mail/mail-templates';
import { collaborationMailText } from '../src/mail/collaboration-mail-text';
import { MailWorker } from '../src/mail/mail-worker';
import { MailPreferencesRepository } from '../src/mail/mail-preferences.repository';
import { MailQueueRepository } from '../src/mail/mail-queue.repository';

const RESET_LINK = 'http://doable.test/auth/reset?token=reset-secret-0123456789';

/**
 * Mail against a real PostgreSQL and a real SMTP server started here (smtp-server; received
 * mails parsed by mailparser): the sender (SMTP with credentials, and the .eml files of the
 * default), the queue fed by consumers (once per event, retried with backoff, body cleared,
 * metrics), and the templates (HTML escaped).
 */
describe('mail (real PostgreSQL, real SMTP)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let db: Database;
  let consumers: EventConsumers;
  let smtp: TestSmtpServer;
  let registry: Registry;
  let worker: MailWorker;
  let mailDir: string;
  const lines: string[] = [];
  const logger = createLogger('test', 'info', { write: (line: string) => void lines.push(line) });
  const bus = new InProcessEventBus(new InProcessBroker(), '');

  const settings = (overrides: Partial<MailSettings> = {}): MailSettings => ({
    smtpUrl: smtp.url,
    smtpUser: undefined,
    smtpPassword: undefined,
    from: 'Doable <doable@example.test>',
    mailDir,
    publicUrl: 'http://doable.test',
    maxRetries: 3,
    retrySeconds: 10,
    // An hour: whatever is sent within a test was sent by runOnce or a wake.
    pollMs: 3_600_000,
    recipientLimit: { limit: 4, windowSeconds: 3600 },
    ...overrides,
  });

  async function publish<P>(event: EventSubject<P>, payload: P, envelope?: EventEnvelope): Promise<EventEnvelope> {
    const sent = envelope ?? { id: randomUUID(), subject: event.name, occurredAt: new Date().toISOString(), payload };
    await bus.publish(sent);
    return sent;
  }
  const queue = () =>
    dataSource.query<Array<{ id: string; mail_key: string; kind: string; recipient: string; body: unknown; state: string; attempts: number; wait: number }>>(
      `SELECT id::text, mail_key, kind, recipient, body, state, attempts, extract(epoch FROM next_attempt_at - now())::float8 AS wait FROM notifications.mail_queue ORDER BY id`,
    );
  const metric = async (name: string) => (await registry.getMetricsAsJSON()).find((m) => m.name === name)?.values ?? [];

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    mailDir = await mkdtemp(join(tmpdir(), 'doable-mail-'));
    database = await createTestDatabase('notifications_mail');
    dataSource = createServiceDataSource({ schema: 'notifications', url: database.url, poolSize: 4, applicationName: 'test', migrations: notificationsMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    db = new Database(dataSource, 'notifications', new OutboxRelay(dataSource, 'notifications', { publish: () => Promise.resolve() }, logger, 3_600_000));
    consumers = new EventConsumers(notificationsService, bus, logger, db);
    registry = new Registry();
    worker = new MailWorker(db, new MailQueueRepository(), settings(), logger, registry);
    const outbox = new MailOutbox(new MailQueueRepository(), worker, settings(), logger, registry);
    new MailConsumers(consumers, outbox, settings());
    new DailyDigestMailer(consumers, new MailPreferencesRepository(), outbox, settings());
    new NotificationProducersConsumer(consumers, new LiveNotificationRepository(), new QueueingInvitationMailer(outbox, settings()), new CollaborationMailer(consumers, new MailPreferencesRepository(), outbox, settings()));
    await consumers.start();
  });

  afterAll(async () => {
    worker.onApplicationShutdown();
    await consumers.stop();
    await dataSource.destroy();
    await database.drop();
    await smtp.close();
    await rm(mailDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    smtp.received.length = 0;
    lines.length = 0;
    await dataSource.query(`DELETE FROM notifications.mail_queue`);
  });

  describe('the sender', () => {
    const message = { to: 'ann@example.test', subject: 'Hello', text: 'plain words', html: '<p>html words</p>' };

    it('sends over SMTP with the credentials of the URL, text and HTML, from MAIL_FROM', async () => {
      const sender = createMailSender(settings(), logger);
      await sender.send(message, 'test');
      sender.close();
      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      expect(mail.envelopeTo).toEqual(['ann@example.test']);
      expect(mail.parsed.from?.text).toBe('"Doable" <doable@example.test>');
      expect(mail.parsed.subject).toBe('Hello');
      expect(mail.parsed.text?.trim()).toBe('plain words');
      expect(mail.parsed.html).toContain('<p>html words</p>');
    });

    it('takes the credentials from SMTP_USER and SMTP_PASSWORD when the URL has none, and fails without them', async () => {
      const bare = `smtp://127.0.0.1:${smtp.port}`;
      const sender = createMailSender(settings({ smtpUrl: bare, smtpUser: 'mailer', smtpPassword: 'mail-secret' }), logger);
      await sender.send(message, 'test');
      sender.close();
      expect(smtp.received).toHaveLength(1);
      const anonymous = createMailSender(settings({ smtpUrl: bare }), logger);
      await expect(anonymous.send(message, 'test')).rejects.toThrow();
      anonymous.close();
      expect(smtp.received).toHaveLength(1);
    });

    it('without SMTP_URL writes an .eml file under the mail folder, readable by its owner only, and logs its path at info', async () => {
      const dir = join(mailDir, 'eml');
      const sender = createMailSender(settings({ smtpUrl: undefined, mailDir: dir }), logger);
      await sender.send({ ...message, text: `open ${RESET_LINK}` }, 'password-reset-1');
      const [file] = await readdir(dir);
      expect(file).toMatch(/password-reset-1\.eml$/);
      const eml = await readFile(join(dir, file), 'utf8');
      expect((await stat(join(dir, file))).mode & 0o777).toBe(0o600);
      expect(eml).toContain('Subject: Hello');
      expect(eml).toContain('To: ann@example.test');
      const logged = lines.map((line) => JSON.parse(line) as { level: number; path?: string; msg: string });
      expect(logged).toEqual([expect.objectContaining({ level: 30, path: join(dir, file) })]);
      expect(lines.join('\n')).not.toContain('reset-secret');
    });
  });

  describe('the queue', () => {
    const reset = { userId: '101', email: 'ann@example.test', fullName: 'Ann', lang: 'en', link: RESET_LINK, expiresAt: '2030-01-01T10:00:00.000Z' };

    it('queues one mail per event however often it is delivered, sends it, and clears its body', async () => {
      const envelope = await publish(AuthEvents.passwordResetRequested, reset);
      await publish(AuthEvents.passwordResetRequested, reset, envelope);
      const queued = await queue();
      expect(queued).toEqual([expect.objectContaining({ kind: 'password-reset', recipient: 'ann@example.test', state: 'pending', mail_key: `password-reset:${envelope.id}` })]);
      expect(await metric('doable_mail_queue_depth')).toEqual([expect.objectContaining({ value: 1 })]);

      expect(await worker.runOnce()).toBe(1);
      expect(await worker.runOnce()).toBe(0);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0].parsed.text).toContain(RESET_LINK);
      expect(smtp.received[0].parsed.subject).toBe('Reset your Doable password');
      expect(await queue()).toEqual([expect.objectContaining({ state: 'sent', body: null, attempts: 1 })]);
      // Delivered again after it was sent: still one mail.
      await publish(AuthEvents.passwordResetRequested, reset, envelope);
      expect(await worker.runOnce()).toBe(0);
      expect(smtp.received).toHaveLength(1);
      expect(await metric('doable_mail_sent_total')).toEqual(expect.arrayContaining([expect.objectContaining({ labels: { kind: 'password-reset' }, value: 1 })]));
      expect(lines.join('\n')).not.toContain('reset-secret');
    });

    it('is woken after the commit that queued a mail, without waiting for its poll', async () => {
      worker.onApplicationBootstrap();
      try {
        await publish(AuthEvents.emailChangeRequested, { ...reset, email: 'ann.new@example.test', previousEmail: 'ann@example.test' });
        // The confirmation to the new address, and (issue #44) the notice to the old one.
        for (let tries = 0; smtp.received.length < 2 && tries < 200; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
        const to = (address: string) => smtp.received.find((mail) => mail.envelopeTo.includes(address));
        expect(smtp.received).toHaveLength(2);
        expect(to('ann.new@example.test')?.parsed.text).toContain('from ann@example.test to this one');
        expect(to('ann@example.test')?.parsed.text).toContain('asked to move it to ann.new@example.test');
        expect(to('ann@example.test')?.parsed.text).not.toContain(RESET_LINK);
      } finally {
        worker.onApplicationShutdown();
      }
    });

    it('mails an address confirmation once per event: a sign-up\'s, and a single sign-on\'s link naming its provider (issue #44)', async () => {
      const signUp = await publish(AuthEvents.addressConfirmationRequested, { ...reset, reason: 'sign-up' });
      await publish(AuthEvents.addressConfirmationRequested, { ...reset, reason: 'sign-up' }, signUp);
      await publish(AuthEvents.addressConfirmationRequested, { ...reset, email: 'bob@example.test', reason: 'sso-link', providerName: 'Acme ID' });
      expect(await worker.runOnce()).toBe(2);
      const to = (address: string) => smtp.received.find((mail) => mail.envelopeTo.includes(address));
      expect(smtp.received).toHaveLength(2);
      expect(to('ann@example.test')?.parsed.subject).toBe('Confirm your Doable address');
      expect(to('ann@example.test')?.parsed.text).toContain(RESET_LINK);
      expect(to('bob@example.test')?.parsed.subject).toBe('Link your Doable account to your sign-in');
      expect(to('bob@example.test')?.parsed.text).toContain('Someone signed in with Acme ID');
      expect(lines.join('\n')).not.toContain('reset-secret');
    });

    it('retries a refused send with exponential backoff, then sends it', async () => {
      smtp.refuseNext(2);
      await publish(AuthEvents.passwordResetRequested, reset);
      expect(await worker.runOnce()).toBe(1);
      let [row] = await queue();
      expect(row).toMatchObject({ state: 'pending', attempts: 1 });
      expect(row.wait).toBeGreaterThan(8);
      expect(row.wait).toBeLessThanOrEqual(10);
      // Not due yet: nothing is claimed.
      expect(await worker.runOnce()).toBe(0);

      await dataSource.query(`UPDATE notifications.mail_queue SET next_attempt_at = now()`);
      expect(await worker.runOnce()).toBe(1);
      [row] = await queue();
      expect(row).toMatchObject({ state: 'pending', attempts: 2 });
      expect(row.wait).toBeGreaterThan(18);
      expect(row.wait).toBeLessThanOrEqual(20);

      await dataSource.query(`UPDATE notifications.mail_queue SET next_attempt_at = now()`);
      expect(await worker.runOnce()).toBe(1);
      expect(await queue()).toEqual([expect.objectContaining({ state: 'sent', attempts: 3, body: null })]);
      expect(smtp.received).toHaveLength(1);
      expect(await metric('doable_mail_failed_total')).toEqual(expect.arrayContaining([expect.objectContaining({ labels: { kind: 'password-reset', outcome: 'retry' }, value: 2 })]));
      // The failure is logged without the link, the recipient or the body.
      expect(lines.some((line) => line.includes('mail send failed'))).toBe(true);
      expect(lines.join('\n')).not.toContain('reset-secret');
    });

    it('gives a mail up after MAIL_MAX_RETRIES retries and clears its body', async () => {
      const impatient = new MailWorker(db, new MailQueueRepository(), settings({ maxRetries: 1 }), logger, new Registry());
      smtp.refuseNext(5);
      await publish(AuthEvents.passwordResetRequested, reset);
      expect(await impatient.runOnce()).toBe(1);
      await dataSource.query(`UPDATE notifications.mail_queue SET next_attempt_at = now()`);
      expect(await impatient.runOnce()).toBe(1);
      expect(await queue()).toEqual([expect.objectContaining({ state: 'failed', attempts: 2, body: null })]);
      await dataSource.query(`UPDATE notifications.mail_queue SET next_attempt_at = now()`);
      expect(await impatient.runOnce()).toBe(0);
      impatient.onApplicationShutdown();
      smtp.refuseNext(0);
    });
  });

  describe('what is mailed', () => {
    const invitation = (overrides: Partial<ShareInvitationSent> = {}): ShareInvitationSent => ({
      invitationId: '7700000001',
      invitationSecret: 'invitation-secret-0123456789',
      projectId: '900',
      projectName: 'Garden <b>& more</b>',
      inviter: { id: '101', email: 'ann@example.test', full_name: 'Ann "the gardener"', image_id: null },
      inviteeEmail: 'stranger@example.test',
      inviteeId: null,
      role: 'READ_WRITE',
      message: '<script>alert(1)</script>',
      ...overrides,
    });

    it('mails an invitation to an address without an account once, with the sign-up link carrying the invitation', async () => {
      const envelope = await publish(SyncEvents.shareInvitationSent, invitation());
      await publish(SyncEvents.shareInvitationSent, invitation(), envelope);
      // Another delivery of the same fact (another event id, same secret): still one mail.
      await publish(SyncEvents.shareInvitationSent, invitation());
      // Sent again with a new secret: a new mail.
      await publish(SyncEvents.shareInvitationSent, invitation({ invitationSecret: 'another-secret-0123456789' }));
      // To an account: a live notification, no mail.
      await publish(SyncEvents.shareInvitationSent, invitation({ invitationId: '7700000002', inviteeId: '102' }));
      expect((await queue()).map((row) => row.kind)).toEqual(['share-invitation', 'share-invitation']);
      await worker.runOnce();
      expect(smtp.received).toHaveLength(2);
      // Sent concurrently: found by its secret.
      const mail = smtp.received.find((received) => received.parsed.text?.includes('invitation-secret-0123456789'))!;
      expect(mail.envelopeTo).toEqual(['stranger@example.test']);
      const link = 'http://doable.test/auth/signup?invitation_id=7700000001&invitation_secret=invitation-secret-0123456789&email=stranger%40example.test';
      expect(mail.parsed.text).toContain(link);
      expect(mail.parsed.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
      // And the decline page (which asks before it declines: a mail scanner following the link declines nothing).
      const decline = 'http://doable.test/auth/invitation/decline?invitation_id=7700000001&invitation_secret=invitation-secret-0123456789';
      expect(mail.parsed.text).toContain(`Decline the invitation: ${decline}`);
      expect(mail.parsed.html).toContain(`<a href="${decline.replace(/&/g, '&amp;')}">Decline the invitation</a>`);
      expect(mail.parsed.subject).toBe('Ann "the gardener" invited you to a project in Doable');
      expect(lines.join('\n')).not.toContain('invitation-secret');
    });

    it("mails an account's invitation, when its settings say so, with Accept and Decline into the app (which asks) and no secret", async () => {
      await publish(SyncEvents.notificationSettingsChanged, { userId: '102', version: '30', email: 'user102@example.test', lang: 'en', settings: { share_invitation_sent: { email: true } } });
      await publish(SyncEvents.shareInvitationSent, invitation({ invitationId: '7700000003', inviteeId: '102', inviteeEmail: 'user102@example.test' }));
      expect((await queue()).map((row) => [row.kind, row.recipient])).toEqual([['collaboration', 'user102@example.test']]);
      await worker.runOnce();
      const [mail] = smtp.received;
      expect(mail.parsed.text).toContain('Accept or decline it from the links below');
      expect(mail.parsed.text).toContain('Accept the invitation: http://doable.test/app/invitation/7700000003/accept');
      expect(mail.parsed.text).toContain('Decline the invitation: http://doable.test/app/invitation/7700000003/decline');
      expect(mail.parsed.html).toContain('<a href="http://doable.test/app/invitation/7700000003/decline">Decline the invitation</a>');
      // The app answers with the signed-in invitee's own notification's secret: the mail carries none.
      expect(`${mail.parsed.text}${String(mail.parsed.html)}`).not.toContain('invitation-secret');
    });

    it('mails a workspace invitation to an address without an account once, its links (sign-up and decline) naming the workspace kind; escaped', async () => {
      const workspaceInvitation = (overrides: Partial<WorkspaceInvitationSent> = {}): WorkspaceInvitationSent => ({
        // The same number as a project invitation's: the tables are numbered apart, so are the keys.
        invitationId: '7700000001',
        invitationSecret: 'workspace-secret-0123456789',
        workspaceId: '880',
        workspaceName: 'Acme <i>& co</i>',
        inviter: { id: '101', email: 'ann@example.test', full_name: 'Ann <admin>', image_id: null },
        inviteeEmail: 'stranger@example.test',
        inviteeId: null,
        role: 'GUEST',
        ...overrides,
      });
      await publish(SyncEvents.shareInvitationSent, invitation());
      const envelope = await publish(SyncEvents.workspaceInvitationSent, workspaceInvitation());
      await publish(SyncEvents.workspaceInvitationSent, workspaceInvitation(), envelope);
      await publish(SyncEvents.workspaceInvitationSent, workspaceInvitation());
      // To an account: its live notification, no mail.
      await publish(SyncEvents.workspaceInvitationSent, workspaceInvitation({ invitationId: '7700000003', inviteeId: '102' }));
      expect((await queue()).map((row) => row.kind).sort()).toEqual(['share-invitation', 'workspace-invitation']);
      await worker.runOnce();
      const mail = smtp.received.find((received) => received.parsed.text?.includes('workspace-secret-0123456789'))!;
      expect(mail.envelopeTo).toEqual(['stranger@example.test']);
      const link = 'http://doable.test/auth/signup?invitation_id=7700000001&invitation_secret=workspace-secret-0123456789&email=stranger%40example.test&invitation_kind=workspace';
      expect(mail.parsed.text).toContain(link);
      expect(mail.parsed.text).toContain('as a guest');
      expect(mail.parsed.html).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
      expect(mail.parsed.html).toContain('Acme &lt;i&gt;&amp; co&lt;/i&gt;');
      expect(mail.parsed.html).not.toMatch(/<i>|<admin>/);
      // And its decline page, naming the kind as the sign-up link does.
      const decline = 'http://doable.test/auth/invitation/decline?invitation_id=7700000001&invitation_secret=workspace-secret-0123456789&invitation_kind=workspace';
      expect(mail.parsed.text).toContain(`Decline the invitation: ${decline}`);
      expect(mail.parsed.html).toContain(`<a href="${decline.replace(/&/g, '&amp;')}">Decline the invitation</a>`);
      expect(mail.parsed.subject).toBe('Ann <admin> invited you to a team workspace in Doable');
      expect(lines.join('\n')).not.toContain('workspace-secret');
    });

    it('mails one address at most MAIL_RECIPIENT_LIMIT unsolicited mails per window, from every sender together; logged without the address', async () => {
      // Four senders invite one address (the test settings' limit is 4 an hour); a reset is one more of the same kind of mail.
      for (let i = 0; i < 4; i++) {
        const inviter = { id: String(110 + i), email: `sender${i}@example.test`, full_name: `Sender ${i}`, image_id: null };
        await publish(SyncEvents.shareInvitationSent, invitation({ invitationId: String(7710000000 + i), invitationSecret: `flood-secret-${i}-0123456789`, inviter, inviteeEmail: 'Flooded@example.test' }));
      }
      await publish(SyncEvents.shareInvitationSent, invitation({ invitationId: '7710000009', invitationSecret: 'flood-secret-9-0123456789', inviteeEmail: 'flooded@example.test' }));
      await publish(AuthEvents.passwordResetRequested, { userId: '150', email: 'flooded@example.test', fullName: 'F', lang: 'en', link: RESET_LINK, expiresAt: '2030-01-01T10:00:00.000Z' });
      // Another address is not touched by the first one's count.
      await publish(SyncEvents.shareInvitationSent, invitation({ invitationId: '7710000010', invitationSecret: 'other-secret-0123456789', inviteeEmail: 'other@example.test' }));
      const queued = await queue();
      expect(queued.filter((row) => row.recipient.toLowerCase() === 'flooded@example.test')).toHaveLength(4);
      expect(queued.filter((row) => row.recipient === 'other@example.test')).toHaveLength(1);
      expect(await metric('doable_mail_recipient_limited_total')).toEqual(
        expect.arrayContaining([expect.objectContaining({ labels: { kind: 'share-invitation' }, value: 1 }), expect.objectContaining({ labels: { kind: 'password-reset' }, value: 1 })]),
      );
      const limited = lines.filter((line) => line.includes('its share of unsolicited mail'));
      expect(limited).toHaveLength(2);
      expect(limited.join('\n').toLowerCase()).not.toContain('flooded@');
    });

    it('quotes the sender\'s message as theirs, escaped, and keeps every text of theirs but their name out of the subject', () => {
      const mail = renderMail('share-invitation', {
        inviterName: 'Ann',
        inviterEmail: 'ann@example.test',
        projectName: 'Your account is suspended',
        message: 'Your Doable account is locked.\nVerify it at https://evil.example',
        link: 'http://doable.test/auth/signup?a=1',
      });
      expect(mail.subject).toBe('Ann invited you to a project in Doable');
      expect(mail.text).toContain('Ann wrote (Doable did not write or check this message):\n\n> Your Doable account is locked.\n> Verify it at https://evil.example');
      expect(mail.html).toMatch(/<p>Ann wrote \(Doable did not write or check this message\):<\/p>\n<blockquote[^>]*>Your Doable account is locked\.<br>Verify it at https:\/\/evil\.example<\/blockquote>/);
      const long = renderMail('workspace-invitation', { inviterName: `${'A'.repeat(100)}\nBcc: x@example.test`, inviterEmail: 'a@example.test', workspaceName: 'Click here now', role: 'MEMBER', link: 'http://doable.test/x' });
      expect(long.subject).toBe(`${'A'.repeat(59)}… invited you to a team workspace in Doable`);
      // The same for an account's invitation mailed by its notification settings.
      const shared = collaborationMailText('share_invitation_sent', { project_name: 'Your account is suspended', from_user: { full_name: 'Ann' } }, 'Someone');
      expect(shared?.subject).toBe('Ann invited you to a project in Doable');
      expect(collaborationMailText('workspace_invitation_created', { workspace_name: 'Click here now' }, 'Ann')?.subject).toBe('Ann invited you to a team workspace in Doable');
    });

    it('mails a collaboration notification to the receivers whose settings say email, once, escaped; the others only get the live notification', async () => {
      // What sync tells of the settings: 202 mails comments; 203 chose email, then (a later version) not; an older change arriving late is ignored.
      await publish(SyncEvents.notificationSettingsChanged, { userId: '202', version: '10', email: 'user202@example.test', lang: 'en', settings: { note_added: { email: true } } });
      await publish(SyncEvents.notificationSettingsChanged, { userId: '203', version: '12', email: 'user203@example.test', lang: 'en', settings: { note_added: { email: false } } });
      await publish(SyncEvents.notificationSettingsChanged, { userId: '203', version: '11', email: 'user203@example.test', lang: 'en', settings: { note_added: { email: true } } });
      // 202's address moved since (auth's event): the mail goes to the new one.
      await publish(AuthEvents.emailChanged, { userId: '202', email: 'new202@example.test', previousEmail: 'user202@example.test' });
      const note = { noteId: '600', itemId: '400', projectId: '900', actorId: '201', noteContent: 'Looks <b>good</b>', memberIds: ['201', '202', '203'], uidsToNotify: null };
      const envelope = await publish(SyncEvents.noteAdded, note);
      await publish(SyncEvents.noteAdded, note, envelope);
      await publish(SyncEvents.itemAssigned, { itemId: '401', itemContent: 'Prune', projectId: '900', assignedBy: '201', responsibleUid: '202', creatorId: '201' });
      expect(await queue()).toEqual([expect.objectContaining({ kind: 'collaboration', recipient: 'new202@example.test', mail_key: 'notification:note_added:600:202' })]);
      // Both receivers have the live notification whatever their mail settings.
      expect(await dataSource.query(`SELECT user_id::text FROM notifications.live_notifications WHERE notification_type = 'note_added' ORDER BY user_id`)).toEqual([{ user_id: '202' }, { user_id: '203' }]);
      await worker.runOnce();
      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      // Comment events name their author by id only: the mail says who in general words.
      expect(mail.parsed.subject).toBe('New comment from A collaborator');
      expect(mail.parsed.text).toContain('A collaborator commented: Looks <b>good</b>');
      expect(mail.parsed.text).toContain('http://doable.test/app/task/400');
      expect(mail.parsed.html).toContain('Looks &lt;b&gt;good&lt;/b&gt;');
      expect(mail.parsed.html).not.toContain('<b>good');
    });

    it('mails a fired reminder that sync says is mailed, once per firing, and no other', async () => {
      const fired = { reminderId: '300', itemId: '400', projectId: '900', userId: '101', dueAt: '2030-01-01T09:00:00.000Z', firedAt: '2030-01-01T09:00:01.000Z', reminder: {} };
      await publish(SyncEvents.reminderFired, { ...fired, mail: { to: 'ann@example.test', lang: 'en', taskContent: 'Water the roses' } });
      await publish(SyncEvents.reminderFired, { ...fired, mail: { to: 'ann@example.test', lang: 'en', taskContent: 'Water the roses' } });
      await publish(SyncEvents.reminderFired, { ...fired, reminderId: '301' });
      await worker.runOnce();
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0].parsed.subject).toBe('Reminder: Water the roses');
      expect(smtp.received[0].parsed.text).toContain('due 2030-01-01 09:00 UTC');
      expect(smtp.received[0].parsed.text).toContain('http://doable.test/app/task/400');
    });
    it('mails a daily digest once per user and local day, to the address and by the digest setting of its copy; escaped', async () => {
      // 501 turned the digest on; 502 on, then off (the event below raced that change); 503 never changed a setting.
      await publish(SyncEvents.notificationSettingsChanged, { userId: '501', version: '20', email: 'user501@example.test', lang: 'en', settings: { daily_digest: { email: true } } });
      await publish(SyncEvents.notificationSettingsChanged, { userId: '502', version: '21', email: 'user502@example.test', lang: 'en', settings: { daily_digest: { email: false } } });
      const tasks = [
        { content: 'File <the> taxes', dueDate: '2026-03-01', dueString: 'Mar 1', projectName: 'Inbox', priority: 1 },
        { content: 'Water the plants', dueDate: '2026-03-10T18:30:00', dueString: 'today 18:30', projectName: 'Garden & co', priority: 4 },
      ];
      const due = { userId: '501', localDate: '2026-03-10', total: 3, tasks };
      const envelope = await publish(SyncEvents.dailyDigestDue, due);
      await publish(SyncEvents.dailyDigestDue, due, envelope);
      // The same digest written again (another event id): the key is the user's local day, still one.
      await publish(SyncEvents.dailyDigestDue, due);
      await publish(SyncEvents.dailyDigestDue, { ...due, userId: '502' });
      await publish(SyncEvents.dailyDigestDue, { ...due, userId: '503' });
      expect(await queue()).toEqual([expect.objectContaining({ kind: 'daily-digest', recipient: 'user501@example.test', mail_key: 'digest:501:2026-03-10' })]);
      await worker.runOnce();
      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      expect(mail.parsed.subject).toBe('Your day in Doable: 3 tasks for 2026-03-10');
      expect(mail.parsed.text).toContain('- File <the> taxes (Inbox, overdue since 2026-03-01)');
      expect(mail.parsed.text).toContain('- Water the plants (Garden & co, today 18:30, p1)');
      expect(mail.parsed.text).toContain('And 1 more.');
      expect(mail.parsed.text).toContain('http://doable.test/app/#/today');
      expect(mail.parsed.html).toContain('File &lt;the&gt; taxes');
      expect(mail.parsed.html).toContain('Garden &amp; co');
      expect(mail.parsed.html).not.toContain('<the>');
    });
  });

  describe('the templates', () => {
    it('escape everything interpolated into the HTML, and keep the text as typed', () => {
      const mail = renderMail('share-invitation', {
        inviterName: '<img src=x onerror=alert(1)>',
        inviterEmail: 'a@example.test',
        projectName: '"Q&A"',
        message: "<script>alert('x')</script>",
        link: 'http://doable.test/auth/signup?a=1&b="2"',
      });
      expect(mail.html).not.toMatch(/<img|<script/);
      expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(mail.html).toContain('&quot;Q&amp;A&quot;');
      expect(mail.html).toContain('&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;');
      expect(mail.html).toContain('href="http://doable.test/auth/signup?a=1&amp;b=&quot;2&quot;"');
      expect(mail.text).toContain("<script>alert('x')</script>");
    });

    it('send an invitation queued before the decline page existed (no declineLink) with the sign-up link only', () => {
      const data = { inviterName: 'Ann', inviterEmail: 'ann@example.test', projectName: 'Garden', message: '', link: 'http://doable.test/auth/signup?a=1' };
      const before = renderMail('share-invitation', data);
      expect(before.text).toContain('Join the project: http://doable.test/auth/signup?a=1');
      expect(`${before.text}${before.html}`).not.toContain('Decline');
      const now = renderMail('share-invitation', { ...data, declineLink: 'http://doable.test/auth/invitation/decline?b=2' });
      expect(now.text).toContain('Decline the invitation: http://doable.test/auth/invitation/decline?b=2');
      expect(now.text).toContain('Not for you? Decline it from the second link: Doable asks you to confirm, then tells Ann.');
    });

    it('send a workspace invitation queued before its decline page existed (no declineLink) with the sign-up link only', () => {
      const data = { inviterName: 'Ann', inviterEmail: 'ann@example.test', workspaceName: 'Acme', role: 'MEMBER', link: 'http://doable.test/auth/signup?a=1' };
      const before = renderMail('workspace-invitation', data);
      expect(before.text).toContain('Join the workspace: http://doable.test/auth/signup?a=1');
      expect(`${before.text}${before.html}`).not.toContain('Decline');
      const now = renderMail('workspace-invitation', { ...data, declineLink: 'http://doable.test/auth/invitation/decline?b=2&invitation_kind=workspace' });
      expect(now.text).toContain('Decline the invitation: http://doable.test/auth/invitation/decline?b=2&invitation_kind=workspace');
      expect(now.text).toContain('Not for you? Decline it from the second link: Doable asks you to confirm, then tells Ann.');
    });

    it('keep a subject on one line whatever a name holds', () => {
      const mail = renderMail('reminder', { taskContent: 'Buy milk\r\nBcc: someone@example.test', dueAt: '2030-01-01T09:00:00Z', link: 'http://doable.test/app/task/1' });
      expect(mail.subject).toBe('Reminder: Buy milk Bcc: someone@example.test');
    });

    it.each(['password-reset', 'email-change'] as const)('%s: text and HTML both carry the link', (kind) => {
      const mail = renderMail(kind, { fullName: 'Ann <3', link: RESET_LINK, expiresAt: '2030-01-01T10:00:00Z', previousEmail: 'old@example.test' });
      expect(mail.text).toContain(RESET_LINK);
      expect(mail.html).toContain(`href="${RESET_LINK}"`);
      expect(mail.html).toContain('Ann &lt;3');
      expect(mail.text).toContain('2030-01-01 10:00 UTC');
    });
  });
});
