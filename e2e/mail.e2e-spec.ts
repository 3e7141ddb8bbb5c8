import { http, startTestSmtpServer, type ReceivedMail, type TestSmtpServer, waitFor } from '@doable/shared-testing';
import { HttpBrowser, logIn } from './support/oauth-flow';
import { command, shareWith } from './support/sharing';
import { createWith, notificationsOf, workspaceCommand } from './support/workspaces';
import { MODES, type SystemUnderTest } from './support/system-view';
import { startOwnSystem } from './support/use-system';

const PUBLIC_URL = 'http://doable.example.test';

/**
 * Every line the system's services log while the suite runs (pino's sonic-boom writes them to
 * stdout with fs.write, or fs.writeSync), kept here instead of printed, to check that no secret
 * is logged.
 */
function captureLogLines(): { readonly lines: string[]; restore(): void } {
  // The module object itself (an ES import would be a copy): what the services' logger calls.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as Record<'write' | 'writeSync', (...args: unknown[]) => unknown>;
  const lines: string[] = [];
  const { write, writeSync } = fs;
  const keep = (data: unknown): number => {
    const text = typeof data === 'string' ? data : Buffer.from(data as Uint8Array).toString('utf8');
    lines.push(...text.split('\n').filter((line) => line.length > 0));
    return typeof data === 'string' ? Buffer.byteLength(data) : (data as Uint8Array).byteLength;
  };
  fs.writeSync = function (this: unknown, fd: unknown, data: unknown, ...rest: unknown[]) {
    return fd === 1 ? keep(data) : writeSync.call(this, fd, data, ...rest);
  };
  fs.write = function (this: unknown, fd: unknown, data: unknown, ...rest: unknown[]) {
    if (fd !== 1) return write.call(this, fd, data, ...rest);
    const written = keep(data);
    const callback = rest.at(-1) as (err: null, written: number, data: unknown) => void;
    process.nextTick(callback, null, written, data);
    return undefined;
  };
  return {
    lines,
    restore: () => {
      fs.write = write;
      fs.writeSync = writeSync;
    },
  };
}

/**
 * A fixed-offset zone whose local hour now is within [from, to] (Etc/GMT-9 is UTC+9: the sign
 * is POSIX's), so a test can put a user before or past the digest's 07:00 whatever the hour it runs.
 */
function zoneWithLocalHour(from: number, to: number): string {
  const hour = new Date().getUTCHours();
  for (let offset = -12; offset <= 14; offset += 1) {
    const local = (hour + offset + 24) % 24;
    if (local >= from && local <= to) return offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
  }
  throw new Error(`no zone has a local hour in [${from}, ${to}] now`);
}

/** The hidden fields of a page's form, by name. */
function hiddenFields(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1], match[2].replace(/&amp;/g, '&')]));
}

/**
 * Mail really sent, in both run modes, to a real SMTP server this test starts (smtp-server):
 * a stranger invited to a shared project gets the invitation mail, follows its link to the
 * sign-up page (plain HTTP: the page needs no JavaScript), signs up, and is a collaborator;
 * another declines from the mail's Decline link (its page asks, its button declines, the sharer
 * is told); a stranger invited to a workspace likewise becomes a member, or declines the same
 * way; a
 * reminder a legacy client gave the email service arrives once when it fires. No log line, at
 * info, holds the invitation's secret link.
 */
describe.each(MODES)('mail (%s)', (mode) => {
  let smtp: TestSmtpServer;
  let system: SystemUnderTest;
  let logs: ReturnType<typeof captureLogLines>;
  const mailsTo = (address: string): ReceivedMail[] => smtp.received.filter((mail) => mail.envelopeTo.includes(address));

  /**
   * The invitation mail to `stranger`, its Decline link checked (the sign-up link beside it names
   * the same invitation and secret), and the link's page opened twice, as a person or a mail
   * scanner would: what both invitation kinds' tests start from.
   */
  async function openedDeclineLink(stranger: string, what: string) {
    const [mail] = await waitFor(() => (mailsTo(stranger).length > 0 ? mailsTo(stranger) : undefined), what);
    const declineLink = /Decline the invitation: (\S+)/.exec(mail.parsed.text ?? '')?.[1];
    expect(declineLink?.startsWith(`${PUBLIC_URL}/auth/invitation/decline?`)).toBe(true);
    const url = new URL(declineLink!);
    const [invitationId, secret] = [url.searchParams.get('invitation_id')!, url.searchParams.get('invitation_secret')!];
    expect(mail.parsed.text).toContain(`invitation_id=${invitationId}&invitation_secret=${secret}`);
    const browser = new HttpBrowser(system.url);
    await browser.get(`${url.pathname}${url.search}`);
    const page = await browser.get(`${url.pathname}${url.search}`);
    expect(page.status).toBe(200);
    return { url, invitationId, secret, browser, page };
  }

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    logs = captureLogLines();
    system = await startOwnSystem(mode, {
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Doable <doable@example.test>', PUBLIC_URL, MAIL_POLL_MS: '500', REMINDERS_POLL_SECONDS: '1', DIGEST_POLL_SECONDS: '1', LOG_LEVEL: 'info' },
    });
  });

  afterAll(async () => {
    await system?.close();
    logs?.restore();
    await smtp?.close();
  });

  it('mails a stranger invited to a shared project; its link signs them up as a collaborator', async () => {
    const owner = await system.createAccount();
    const stranger = `stranger-${mode}-${Date.now()}@example.test`;
    const added = await http(system.url, 'POST', '/api/v1/sync', { token: owner.token, json: { commands: [{ type: 'project_add', uuid: `mail-${mode}-p`, temp_id: 'p', args: { name: 'Garden <shared>' } }] } });
    const projectId = (added.body.temp_id_mapping as Record<string, string>)['p'];
    expect(await command(system, owner, 'share_project', { project_id: projectId, email: stranger })).toBe('ok');

    const [mail] = await waitFor(() => (mailsTo(stranger).length > 0 ? mailsTo(stranger) : undefined), 'the invitation mail');
    expect(mail.parsed.from?.text).toBe('"Doable" <doable@example.test>');
    expect(mail.parsed.subject).toContain('invited you to a project in Doable');
    expect(mail.parsed.html).toContain('Garden &lt;shared&gt;');
    const link = /(\S+\/auth\/signup\?\S+)/.exec(mail.parsed.text ?? '')?.[1];
    expect(link?.startsWith(`${PUBLIC_URL}/auth/signup?`)).toBe(true);
    const secret = new URL(link!).searchParams.get('invitation_secret')!;
    expect(secret.length).toBeGreaterThanOrEqual(16);

    // The link, at the system's own address (PUBLIC_URL names where users reach it).
    const browser = new HttpBrowser(system.url);
    const url = new URL(link!);
    const form = await browser.get(`${url.pathname}${url.search}`);
    expect(form.status).toBe(200);
    const hidden = hiddenFields(form.text);
    expect(hidden).toMatchObject({ invitation_secret: secret });
    expect(form.text).toContain(`value="${stranger}"`);
    const done = await browser.submit('/auth/signup', form, { ...hidden, email: stranger, full_name: 'Stranger', password: 'a long enough password 42' });
    expect(done.status).toBe(201);

    const [{ id: strangerId }] = await system.sql<{ id: string }>(`SELECT id::text FROM auth.accounts WHERE email = $1`, [stranger]);
    // The owner sees the new account as an active collaborator of the project.
    await waitFor(async () => {
      const body = (await http(system.url, 'POST', '/api/v1/sync', { token: owner.token, json: { sync_token: '*', resource_types: ['collaborators'] } })).body;
      return (body.collaborator_states as Array<{ project_id: string; user_id: string; state: string }> | undefined)?.some((state) => state.project_id === projectId && state.user_id === strangerId && state.state === 'active');
    }, 'the stranger as an active collaborator');
    expect(await system.sql(`SELECT state FROM sync.project_invitations WHERE project_id = $1`, [projectId])).toEqual([{ state: 'accepted' }]);
    // One invitation mail: the invitation offered to the new account is a live notification, not a
    // mail. (The sign-up's own address confirmation, issue #44, is another kind.)
    expect(mailsTo(stranger).filter((mail) => mail.parsed.subject !== 'Confirm your Doable address')).toHaveLength(1);

    expect(logs.lines.length).toBeGreaterThan(0);
    expect(logs.lines.filter((line) => line.includes(secret))).toEqual([]);
  });

  it("mails a stranger a Decline link: its page asks (opening it declines nothing), its button declines once, the sharer is told and nothing stays pending", async () => {
    const ana = await system.createAccount();
    const stranger = `decliner-${mode}-${Date.now()}@example.test`;
    const added = await http(system.url, 'POST', '/api/v1/sync', { token: ana.token, json: { commands: [{ type: 'project_add', uuid: `mail-${mode}-dp`, temp_id: 'p', args: { name: 'Orchard <shared>' } }] } });
    const projectId = (added.body.temp_id_mapping as Record<string, string>)['p'];
    expect(await command(system, ana, 'share_project', { project_id: projectId, email: stranger })).toBe('ok');
    const anaSync = async () => (await http(system.url, 'POST', '/api/v1/sync', { token: ana.token, json: { sync_token: '*', resource_types: ['live_notifications', 'collaborators'] } })).body;
    type Notice = { notification_type: string; invitation_id?: string; project_name?: string; reject_email?: string; from_user?: { email: string; full_name: string } };

    // Opened twice: the page shows who invited to what and asks.
    const { url, invitationId, secret, browser, page } = await openedDeclineLink(stranger, 'the invitation mail');
    expect(page.text).toContain(ana.email);
    expect(page.text).toContain('Orchard &lt;shared&gt;');
    expect(page.text).toContain('<button type="submit">Decline the invitation</button>');
    // Nothing was declined by opening it: the invitation is open still, and Ana was told nothing.
    expect(await system.sql(`SELECT state FROM sync.project_invitations WHERE id = $1`, [invitationId])).toEqual([{ state: 'invited' }]);
    expect(((await anaSync()).live_notifications as Notice[]).filter((notice) => notice.invitation_id === invitationId)).toEqual([]);

    // A wrong secret (another of the same shape) learns nothing: not valid, no name, no project.
    const guessed = await browser.get(`${url.pathname}?invitation_id=${invitationId}&invitation_secret=${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`);
    expect(guessed.status).toBe(404);
    expect(guessed.text).toContain('data-error-tag="INVITATION_LINK_INVALID"');
    expect(guessed.text).not.toContain('Orchard');

    // A post without the page's CSRF cookie (another site's form) declines nothing.
    expect((await new HttpBrowser(system.url).request('POST', url.pathname, hiddenFields(page.text))).status).toBe(403);
    expect(await system.sql(`SELECT state FROM sync.project_invitations WHERE id = $1`, [invitationId])).toEqual([{ state: 'invited' }]);

    // The button declines: a form post with the page's CSRF token.
    const declined = await browser.submit(url.pathname, page, hiddenFields(page.text));
    expect(declined.status).toBe(200);
    expect(declined.text).toContain('data-testid="invitation-declined"');
    expect(await system.sql(`SELECT state FROM sync.project_invitations WHERE id = $1`, [invitationId])).toEqual([{ state: 'rejected' }]);

    // Ana is told as when an account declines: share_invitation_rejected, the address as who declined.
    const told = await waitFor(async () => ((await anaSync()).live_notifications as Notice[]).find((notice) => notice.invitation_id === invitationId), "Ana's notification of the decline");
    expect(told).toMatchObject({ notification_type: 'share_invitation_rejected', project_name: 'Orchard <shared>', reject_email: stranger, from_user: { email: stranger, full_name: stranger } });

    // Nothing is pending any more: no invited state in the project, and cancelling finds no invitation to the address
    // (an open one is cancelled so: a second stranger's, the control).
    const states = ((await anaSync()).collaborator_states ?? []) as Array<{ project_id: string; state: string }>;
    expect(states.filter((state) => state.project_id === projectId && state.state === 'invited')).toEqual([]);
    expect(await command(system, ana, 'delete_collaborator', { project_id: projectId, email: stranger })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
    const control = `control-${mode}-${Date.now()}@example.test`;
    expect(await command(system, ana, 'share_project', { project_id: projectId, email: control })).toBe('ok');
    expect(await command(system, ana, 'delete_collaborator', { project_id: projectId, email: control })).toBe('ok');

    // A second press, and the link opened again: declined already, nothing more happens.
    const again = await browser.submit(url.pathname, page, hiddenFields(page.text));
    expect(again.status).toBe(200);
    expect(again.text).toContain('data-testid="invitation-already-declined"');
    const reopened = await browser.get(`${url.pathname}${url.search}`);
    expect(reopened.text).toContain('data-testid="invitation-already-declined"');
    expect(reopened.text).not.toContain('<form');
    expect(((await anaSync()).live_notifications as Notice[]).filter((notice) => notice.invitation_id === invitationId)).toHaveLength(1);

    expect(logs.lines.filter((line) => line.includes(secret))).toEqual([]);
  });

  it('mails a stranger invited to a workspace; its link signs them up as a member', async () => {
    const admin = await system.createAccount();
    const stranger = `ws-stranger-${mode}-${Date.now()}@example.test`;
    const workspaceId = await createWith(system, admin, 'workspace_add', { name: 'Acme <team>' });
    expect((await workspaceCommand(system, admin, 'workspace_invite', { workspace_id: workspaceId, email_list: [stranger], role: 'MEMBER' })).status).toBe('ok');

    const [mail] = await waitFor(() => (mailsTo(stranger).length > 0 ? mailsTo(stranger) : undefined), 'the workspace invitation mail');
    expect(mail.parsed.subject).toContain('invited you to a team workspace in Doable');
    expect(mail.parsed.html).toContain('Acme &lt;team&gt;');
    const link = /(\S+\/auth\/signup\?\S+)/.exec(mail.parsed.text ?? '')?.[1];
    expect(link?.startsWith(`${PUBLIC_URL}/auth/signup?`)).toBe(true);
    const url = new URL(link!);
    expect(url.searchParams.get('invitation_kind')).toBe('workspace');
    const secret = url.searchParams.get('invitation_secret')!;

    const browser = new HttpBrowser(system.url);
    const form = await browser.get(`${url.pathname}${url.search}`);
    expect(form.status).toBe(200);
    const hidden = hiddenFields(form.text);
    expect(hidden).toMatchObject({ invitation_secret: secret, invitation_kind: 'workspace' });
    const done = await browser.submit('/auth/signup', form, { ...hidden, email: stranger, full_name: 'Workspace Stranger', password: 'a long enough password 43' });
    expect(done.status).toBe(201);

    const [{ id: strangerId }] = await system.sql<{ id: string }>(`SELECT id::text FROM auth.accounts WHERE email = $1`, [stranger]);
    // The admin sees the new account as an active member of the workspace.
    await waitFor(async () => {
      const users = await http(system.url, 'GET', `/api/v1/workspaces/users?workspace_id=${workspaceId}`, { token: admin.token });
      return (users.body.workspace_users as Array<{ user_id: string; role: string }> | undefined)?.some((user) => user.user_id === strangerId && user.role === 'MEMBER');
    }, 'the stranger as a workspace member');
    expect(await system.sql(`SELECT state FROM sync.workspace_invitations WHERE workspace_id = $1`, [workspaceId])).toEqual([{ state: 'accepted' }]);
    expect(mailsTo(stranger).filter((mail) => mail.parsed.subject !== 'Confirm your Doable address')).toHaveLength(1);
    expect(logs.lines.filter((line) => line.includes(secret))).toEqual([]);
  });

  it("mails a stranger invited to a workspace a Decline link: its page asks, its button declines once, the inviter is told and the address leaves the pending ones", async () => {
    const admin = await system.createAccount();
    const stranger = `ws-decliner-${mode}-${Date.now()}@example.test`;
    const workspaceId = await createWith(system, admin, 'workspace_add', { name: 'Initech <team>' });
    expect((await workspaceCommand(system, admin, 'workspace_invite', { workspace_id: workspaceId, email_list: [stranger], role: 'MEMBER' })).status).toBe('ok');
    const pending = async () => (await http<string[]>(system.url, 'GET', `/api/v1/workspaces/invitations?workspace_id=${workspaceId}`, { token: admin.token })).body;
    expect(await pending()).toEqual([stranger]);
    type Notice = { notification_type: string; invitation_id?: string; workspace_name?: string; from_user?: { id: string; email: string; full_name: string } };
    const toldAdmin = async (invitationId: string) => ((await notificationsOf(system, admin)) as Notice[]).filter((notice) => notice.invitation_id === invitationId);

    // Opened twice: the page names who invited to which workspace, and asks.
    const { url, invitationId, secret, browser, page } = await openedDeclineLink(stranger, 'the workspace invitation mail');
    expect(url.searchParams.get('invitation_kind')).toBe('workspace');
    expect(page.text).toContain(admin.email);
    expect(page.text).toContain('team workspace <strong data-testid="invitation-workspace">Initech &lt;team&gt;</strong>');
    expect(page.text).toContain('<button type="submit">Decline the invitation</button>');
    expect(hiddenFields(page.text)).toMatchObject({ invitation_id: invitationId, invitation_kind: 'workspace' });
    // Opening it declined nothing.
    expect(await system.sql(`SELECT state FROM sync.workspace_invitations WHERE id = $1`, [invitationId])).toEqual([{ state: 'invited' }]);
    expect(await toldAdmin(invitationId)).toEqual([]);

    // A wrong secret learns nothing; the same id read as a project invitation's is not this one; a post without the page's CSRF cookie declines nothing.
    const guessed = await browser.get(`${url.pathname}?invitation_id=${invitationId}&invitation_secret=${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}&invitation_kind=workspace`);
    expect(guessed.status).toBe(404);
    expect(guessed.text).toContain('data-error-tag="INVITATION_LINK_INVALID"');
    expect(guessed.text).not.toContain('Initech');
    const asProject = await browser.get(`${url.pathname}?invitation_id=${invitationId}&invitation_secret=${secret}`);
    expect(asProject.text).not.toContain('Initech');
    expect((await new HttpBrowser(system.url).request('POST', url.pathname, hiddenFields(page.text))).status).toBe(403);
    expect(await system.sql(`SELECT state FROM sync.workspace_invitations WHERE id = $1`, [invitationId])).toEqual([{ state: 'invited' }]);

    // The button declines.
    const declined = await browser.submit(url.pathname, page, hiddenFields(page.text));
    expect(declined.status).toBe(200);
    expect(declined.text).toContain('data-testid="invitation-declined"');
    expect(await system.sql(`SELECT state FROM sync.workspace_invitations WHERE id = $1`, [invitationId])).toEqual([{ state: 'rejected' }]);
    // The inviter is told, as when an account declines: workspace_invitation_rejected, the address as who declined.
    const [told] = await waitFor(async () => {
      const notices = await toldAdmin(invitationId);
      return notices.length > 0 ? notices : undefined;
    }, "the admin's notification of the decline");
    expect(told).toMatchObject({ notification_type: 'workspace_invitation_rejected', workspace_name: 'Initech <team>', from_user: { id: '0', email: stranger, full_name: stranger } });
    expect(await pending()).toEqual([]);

    // A second press, and the link opened again: declined already, nothing more happens.
    const again = await browser.submit(url.pathname, page, hiddenFields(page.text));
    expect(again.status).toBe(200);
    expect(again.text).toContain('data-testid="invitation-already-declined"');
    const reopened = await browser.get(`${url.pathname}${url.search}`);
    expect(reopened.text).toContain('data-testid="invitation-already-declined"');
    expect(reopened.text).not.toContain('<form');
    expect(await toldAdmin(invitationId)).toHaveLength(1);

    // An invitation the admin withdrew: its link says so (410), and declines nothing.
    const withdrawnAddress = `ws-withdrawn-${mode}-${Date.now()}@example.test`;
    expect((await workspaceCommand(system, admin, 'workspace_invite', { workspace_id: workspaceId, email_list: [withdrawnAddress], role: 'MEMBER' })).status).toBe('ok');
    const [withdrawnMail] = await waitFor(() => (mailsTo(withdrawnAddress).length > 0 ? mailsTo(withdrawnAddress) : undefined), 'the second invitation mail');
    expect((await workspaceCommand(system, admin, 'workspace_delete_invitation', { workspace_id: workspaceId, email: withdrawnAddress })).status).toBe('ok');
    const withdrawnLink = new URL(/Decline the invitation: (\S+)/.exec(withdrawnMail.parsed.text ?? '')![1]);
    const withdrawn = await browser.get(`${withdrawnLink.pathname}${withdrawnLink.search}`);
    expect(withdrawn.status).toBe(410);
    expect(withdrawn.text).toContain('data-error-tag="INVITATION_WITHDRAWN"');

    expect(logs.lines.filter((line) => line.includes(secret))).toEqual([]);
  });

  it('mails a comment to a collaborator whose notification settings ask for it (set through the endpoints), not to one who did not', async () => {
    const [owner, keen, quiet] = [await system.createAccount(), await system.createAccount(), await system.createAccount()];
    const added = await http(system.url, 'POST', '/api/v1/sync', { token: owner.token, json: { commands: [{ type: 'project_add', uuid: `mail-${mode}-np`, temp_id: 'p', args: { name: 'Orchard' } }, { type: 'item_add', uuid: `mail-${mode}-nt`, temp_id: 't', args: { content: 'Prune <the> trees', project_id: 'p' } }] } });
    const mapping = added.body.temp_id_mapping as Record<string, string>;
    await shareWith(system, owner, keen, mapping['p']);
    await shareWith(system, owner, quiet, mapping['p']);

    // api/v1's endpoint, then v9's (a form): each answers the caller's settings whole.
    const v1 = await http(system.url, 'PUT', '/api/v1/notification_setting', { token: keen.token, json: { notification_type: 'note_added', service: 'email', dont_notify: false } });
    expect(v1.status).toBe(200);
    expect(v1.body.note_added).toEqual({ notify_email: true, notify_push: true });
    const v9 = await http(system.url, 'POST', '/sync/v9/notification_settings/update', { token: quiet.token, form: { notification_type: 'note_added', service: 'push', dont_notify: 'true' } });
    expect(v9.status).toBe(200);
    expect(v9.body.note_added).toEqual({ notify_email: false, notify_push: false });
    // A coded refusal: an unknown type.
    expect((await http(system.url, 'PUT', '/api/v1/notification_setting', { token: keen.token, json: { notification_type: 'nope', service: 'email', dont_notify: false } })).status).toBe(400);
    // Each reads back their own in a full sync (settings_notifications), the owner the defaults.
    const settingsOf = async (token: string) => (await http(system.url, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['notification_settings'] } })).body.settings_notifications;
    expect((await settingsOf(keen.token)).note_added).toEqual({ notify_email: true, notify_push: true });
    expect((await settingsOf(owner.token)).note_added).toEqual({ notify_email: false, notify_push: true });

    expect(await command(system, owner, 'note_add', { item_id: mapping['t'], content: 'Before <spring>' })).toBe('ok');
    const [mail] = await waitFor(() => (mailsTo(keen.email).length > 0 ? mailsTo(keen.email) : undefined), 'the comment mail');
    expect(mail.parsed.text).toContain('commented: Before <spring>');
    expect(mail.parsed.html).toContain('Before &lt;spring&gt;');
    expect(mail.parsed.text).toContain(`${PUBLIC_URL}/app/task/${mapping['t']}`);
    // The live notification reached both; the mail only the one who asked, once.
    await waitFor(async () => (await system.sql(`SELECT 1 FROM notifications.live_notifications WHERE notification_type = 'note_added' AND user_id = $1`, [quiet.userId])).length > 0, 'the quiet one\'s live notification');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(mailsTo(keen.email)).toHaveLength(1);
    expect(mailsTo(quiet.email)).toHaveLength(0);
  });

  it('mails the daily digest, once, to a user who turned it on through the endpoint, once 07:00 has passed where they are', async () => {
    const user = await system.createAccount();
    // First before 07:00 (01:00 to 05:00 local): turned on, the digest is not due yet.
    expect(await command(system, user, 'user_update', { timezone: zoneWithLocalHour(1, 5) })).toBe('ok');
    const added = await http(system.url, 'POST', '/api/v1/sync', {
      token: user.token,
      json: { commands: [{ type: 'item_add', uuid: `mail-${mode}-dt`, temp_id: 't', args: { content: 'Renew <the> passport', due: { date: '2020-01-06' } } }, { type: 'item_add', uuid: `mail-${mode}-dn`, temp_id: 'n', args: { content: 'Someday maybe' } }] },
    });
    expect(added.status).toBe(200);
    const turnedOn = await http(system.url, 'PUT', '/api/v1/notification_setting', { token: user.token, json: { notification_type: 'daily_digest', service: 'email', dont_notify: false } });
    expect(turnedOn.status).toBe(200);
    expect(turnedOn.body.daily_digest).toEqual({ notify_email: true, notify_push: false });
    // A mail only: no push to choose (a coded refusal).
    expect((await http(system.url, 'PUT', '/api/v1/notification_setting', { token: user.token, json: { notification_type: 'daily_digest', service: 'push', dont_notify: false } })).status).toBe(400);
    await waitFor(async () => (await system.sql(`SELECT 1 FROM notifications.mail_preferences WHERE user_id = $1 AND settings -> 'daily_digest' ->> 'email' = 'true'`, [user.userId])).length > 0, 'the notifications service\'s copy of the setting');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(mailsTo(user.email)).toHaveLength(0);

    // Then somewhere it is past 07:00 (09:00 to 20:00 local): the next look makes the digest.
    expect(await command(system, user, 'user_update', { timezone: zoneWithLocalHour(9, 20) })).toBe('ok');
    const [mail] = await waitFor(() => (mailsTo(user.email).length > 0 ? mailsTo(user.email) : undefined), 'the digest mail');
    expect(mail.parsed.subject).toMatch(/^Your day in Doable: 1 task for \d{4}-\d{2}-\d{2}$/);
    expect(mail.parsed.text).toContain('- Renew <the> passport (Inbox, overdue since 2020-01-06)');
    expect(mail.parsed.text).not.toContain('Someday maybe');
    expect(mail.parsed.text).toContain(`${PUBLIC_URL}/app/#/today`);
    expect(mail.parsed.html).toContain('Renew &lt;the&gt; passport');
    // Many looks of the scheduler later: still one for the day.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(mailsTo(user.email)).toHaveLength(1);
    expect(await system.sql(`SELECT state, mail_key FROM notifications.mail_queue WHERE kind = 'daily-digest' AND recipient = $1`, [user.email])).toEqual([{ state: 'sent', mail_key: expect.stringMatching(new RegExp(`^digest:${user.userId}:\\d{4}-\\d{2}-\\d{2}$`)) }]);
  });

  it('mails a forgotten password\'s reset link; following it sets the new password, once', async () => {
    const oldPassword = 'the old long password 1';
    const newPassword = 'a brand new long password 2';
    const account = await system.createAccount({ password: oldPassword });
    const browser = new HttpBrowser(system.url);
    const forgot = await browser.get('/auth/password/forgot');
    expect((await browser.submit('/auth/password/forgot', forgot, { email: account.email })).status).toBe(200);

    const [mail] = await waitFor(() => (mailsTo(account.email).length > 0 ? mailsTo(account.email) : undefined), 'the reset mail');
    const link = /(\S+\/auth\/password\/reset\?\S+)/.exec(mail.parsed.text ?? '')?.[1];
    expect(link?.startsWith(`${PUBLIC_URL}/auth/password/reset?token=`)).toBe(true);
    const url = new URL(link!);
    const token = url.searchParams.get('token')!;
    const form = await browser.get(`${url.pathname}${url.search}`);
    expect(form.status).toBe(200);
    expect((await browser.submit('/auth/password/reset', form, { ...hiddenFields(form.text), password: newPassword })).status).toBe(200);

    await logIn(new HttpBrowser(system.url), account.email, newPassword);
    await expect(logIn(new HttpBrowser(system.url), account.email, oldPassword)).rejects.toThrow();
    expect((await browser.get(`${url.pathname}${url.search}`)).status).toBe(400);
    // The mail row keeps no copy of the link once sent, and no log line holds the token.
    expect(await system.sql(`SELECT state, body FROM notifications.mail_queue WHERE recipient = $1`, [account.email])).toEqual([{ state: 'sent', body: null }]);
    expect(logs.lines.filter((line) => line.includes(token))).toEqual([]);
  });

  it('mails a reminder with the email service when it fires, once', async () => {
    const owner = await system.createAccount();
    const added = await http(system.url, 'POST', '/api/v1/sync', { token: owner.token, json: { commands: [{ type: 'item_add', uuid: `mail-${mode}-t`, temp_id: 't', args: { content: 'Water <the> roses' } }] } });
    const itemId = (added.body.temp_id_mapping as Record<string, string>)['t'];
    const due = `${new Date().toISOString().slice(0, 19)}Z`;
    const reminder = await http(system.url, 'POST', '/sync/v8/sync', {
      token: owner.token,
      json: { commands: [{ type: 'reminder_add', uuid: `mail-${mode}-r`, temp_id: 'r', args: { item_id: itemId, type: 'absolute', service: 'email', due: { date: due } } }] },
    });
    expect(reminder.body.sync_status[`mail-${mode}-r`]).toBe('ok');

    const [mail] = await waitFor(() => (mailsTo(owner.email).length > 0 ? mailsTo(owner.email) : undefined), 'the reminder mail');
    expect(mail.parsed.subject).toBe('Reminder: Water <the> roses');
    expect(mail.parsed.html).toContain('Water &lt;the&gt; roses');
    expect(mail.parsed.text).toContain(`${PUBLIC_URL}/app/task/${itemId}`);
    // Several polls of the scheduler and the mail worker later: still one.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(mailsTo(owner.email)).toHaveLength(1);
    expect(await system.sql(`SELECT state, body FROM notifications.mail_queue WHERE kind = 'reminder' AND recipient = $1`, [owner.email])).toEqual([{ state: 'sent', body: null }]);
  });
});
