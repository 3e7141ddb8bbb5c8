import { eventStreamDrained, http, waitFor } from '@doable/shared-testing';
import { streamNameFor } from '@doable/shared-transport';
import { runClient } from './support/clients';
import { HttpBrowser } from './support/oauth-flow';
import { shareWith } from './support/sharing';
import { syncSession } from './support/sync-session';
import { type Account, MODES, type SystemUnderTest } from './support/system-view';
import { useSystem } from './support/use-system';

/** The environment the three-person client scripts read. */
function people(system: SystemUnderTest, [a, b, c]: readonly Account[]): Record<string, string> {
  return {
    DOABLE_URL: system.url,
    DOABLE_TOKEN_A: a.token,
    DOABLE_TOKEN_B: b.token,
    DOABLE_TOKEN_C: c.token,
    DOABLE_USER_A: a.userId,
    DOABLE_USER_B: b.userId,
    DOABLE_USER_C: c.userId,
    DOABLE_EMAIL_B: b.email,
    DOABLE_EMAIL_C: c.email,
  };
}

/**
 * Collaboration end to end, through unmodified clients: a project shared by three people, the
 * live notifications each of them receives (sync-interface §6), what their syncs show of the
 * shared objects as they join, leave and are removed, and what the REST SDKs list.
 */
describe.each(MODES)('sharing (%s)', (mode) => {
  const { system } = useSystem(mode, { accounts: 0 });
  const trio = async () => [await system.createAccount(), await system.createAccount(), await system.createAccount()] as const;

  it('@doist/todoist-sdk 17: invite, accept, reject, role change, assignment, completion, comment, leave and removal', async () => {
    const [a, b, c] = await trio();
    const report = await runClient('todoist-sdk-sharing.mjs', people(system, [a, b, c]));

    expect(report.share).toEqual({ statuses: ['ok', 'ok', 'ok', 'ok'], shared: false });
    expect(report.invitation).toEqual({
      fields: ['fromUser', 'invitationId', 'invitationSecret', 'projectName', 'state'],
      state: 'invited',
      projectName: 'Team project',
      from: a.email,
      fromUid: a.userId,
    });
    expect(report.bJoins).toEqual({
      statuses: ['ok'],
      projects: [{ name: 'Team project', shared: true }],
      items: ['Shared task'],
      // C is invited: members see the invited state and the person.
      collaborators: [a.userId, b.userId, c.userId].sort(),
      states: [`${a.userId}:active`, `${b.userId}:active`, `${c.userId}:invited`].sort(),
    });
    expect(report.cRejects).toEqual({ wrongSecret: ['INVALID_ARGUMENT_VALUE'], reject: ['ok'], sawProject: false });
    expect(report.cJoins).toEqual({ reinvite: ['ok'], accept: ['ok'], items: ['Shared task'] });
    expect(report.assignment).toEqual({
      roleChange: ['ok'],
      assign: ['ok'],
      notification: { fields: ['assignedByUid', 'itemContent', 'itemId', 'projectId', 'responsibleUid'], itemId: true, responsibleUid: c.userId, assignedByUid: a.userId },
    });
    expect(report.completion).toEqual({
      cEdits: ['FORBIDDEN'],
      cCompletes: ['ok'],
      notification: ['assignedByUid', 'itemContent', 'itemId', 'projectId', 'responsibleUid'],
      reopen: ['ok'],
    });
    expect(report.comment).toEqual({ bSection: ['FORBIDDEN'], bNote: ['ok'], fields: ['itemId', 'noteContent', 'noteId', 'projectId'], content: 'A comment from B' });
    expect(report.cLeaves).toEqual({ statuses: ['ok'], project: [true], items: [true] });
    expect(report.bRemoved).toEqual({
      statuses: ['ok'],
      notification: { fields: ['projectId', 'removedName', 'removedUid'], removedUid: b.userId },
      tombstone: { project: true, item: true },
      fullSyncHasProject: false,
      // A is alone again: the project is no longer shared, so A's own state goes too.
      aSeesStates: [`${a.userId}:true`, `${b.userId}:true`].sort(),
    });
    // Exactly what §6 sends each of them, once each.
    expect(report.notifications).toEqual({
      A: ['item_completed', 'note_added', 'share_invitation_accepted', 'share_invitation_accepted', 'share_invitation_rejected', 'user_left_project'],
      B: ['share_invitation_sent:accepted', 'user_left_project', 'user_removed_from_project'],
      C: ['item_assigned', 'item_uncompleted', 'note_added', 'share_invitation_sent:accepted', 'share_invitation_sent:rejected'],
    });
  });

  it.each(['/sync/v9', '/api/v1'])('todoist@1.1.0 sharing helpers against %s', async (path) => {
    const [a, b, c] = await trio();
    const env = people(system, [a, b, c]);
    const report = await runClient('todoist-community-sharing.mjs', { ...env, DOABLE_SYNC_ENDPOINT: `${system.url}${path}` });
    expect(report).toEqual({
      // A, B, and C, who is invited: an invited person is a collaborator too (their state says `invited`).
      bJoined: { projects: ['Community shared'], collaborators: 3 },
      cWrongSecret: 'INVALID_ARGUMENT_VALUE',
      cAfterWithdrawal: 'INVALID_ARGUMENT_VALUE',
      // The client keeps every collaborator it was sent (collaborators carry no tombstone).
      aCollaborators: [a.email, b.email, c.email].sort(),
      bAfterRemoval: false,
    });
  });

  // sync-interface §4.1: `collaborators` holds "all collaborators across shared projects, plus the
  // list of shared projects". Every validating client reads `collaborators` as an array of people
  // (client-schemas: sdk 10.5/11/17, api-typescript 5.9.0), so the people stay there and the list of
  // shared projects is the `project_id`s of `collaborator_states`, returned with it (docs/api/collaboration.md).
  it.each([
    ['/sync/v9/sync', 'shared'],
    ['/api/v1/sync', 'is_shared'],
  ])('%s answers collaborators with every collaborator of every shared project, and their projects in collaborator_states', async (path, sharedKey) => {
    const [owner, b, c] = await trio();
    const { run } = syncSession(() => system, () => owner, `collaborators-${sharedKey}`);
    const { mapping } = await run(
      { type: 'project_add', temp_id: 'with-b', args: { name: 'With B' } },
      { type: 'project_add', temp_id: 'with-c', args: { name: 'With C' } },
      { type: 'project_add', temp_id: 'alone', args: { name: 'Alone' } },
    );
    await shareWith(system, owner, b, mapping['with-b']);
    await shareWith(system, owner, c, mapping['with-c']);
    const body = (await http(system.url, 'POST', path, { token: owner.token, json: { sync_token: '*', resource_types: ['projects', 'collaborators'] } })).body;

    expect(Array.isArray(body.collaborators)).toBe(true);
    expect(body.collaborators.map((person: { id: string }) => person.id).sort()).toEqual([owner.userId, b.userId, c.userId].sort());
    for (const person of body.collaborators) expect(Object.keys(person)).toEqual(expect.arrayContaining(['id', 'email', 'full_name', 'timezone', 'image_id']));
    const sharedProjects = (body.projects as Array<Record<string, unknown>>).filter((project) => project[sharedKey] === true).map((project) => project['id']);
    const statedProjects = [...new Set((body.collaborator_states as Array<{ project_id: string; is_deleted: boolean }>).filter((state) => !state.is_deleted).map((state) => state.project_id))];
    expect(statedProjects.sort()).toEqual([mapping['with-b'], mapping['with-c']].sort());
    expect(sharedProjects.sort()).toEqual(statedProjects);
  });

  it('every REST SDK lists a shared project’s collaborators to a member and refuses a stranger', async () => {
    const [a, b, stranger] = await trio();
    const { run } = syncSession(() => system, () => a, 'rest-collaborators');
    const { statuses, mapping } = await run(
      { type: 'project_add', temp_id: 'shared', args: { name: 'Listed' } },
      { type: 'share_project', args: { project_id: 'shared', email: b.email } },
    );
    expect(statuses).toEqual(['ok', 'ok']);
    const [invitation] = await system.sql<{ id: string }>(`SELECT id::text FROM sync.project_invitations WHERE invitee_id = $1`, [b.userId]);
    const secret = await waitFor(async () => {
      const body = (await http(system.url, 'POST', '/api/v1/sync', { token: b.token, json: { sync_token: '*', resource_types: ['live_notifications'] } })).body;
      return body.live_notifications.find((n: { invitation_id?: string }) => n.invitation_id === invitation.id)?.invitation_secret as string | undefined;
    }, 'the invitation to reach B');
    const accept = await http(system.url, 'POST', '/api/v1/sync', {
      token: b.token,
      json: { commands: [{ type: 'accept_invitation', uuid: `accept-${mode}`, args: { invitation_id: invitation.id, invitation_secret: secret } }] },
    });
    expect(accept.body.sync_status[`accept-${mode}`]).toBe('ok');

    const report = await runClient('rest-collaborators.mjs', { DOABLE_URL: system.url, DOABLE_PROJECT_ID: mapping['shared'], DOABLE_MEMBER_TOKEN: b.token, DOABLE_STRANGER_TOKEN: stranger.token });
    const members = [a.email, b.email].sort();
    expect(report).toEqual({
      'rest-v1 (1.7.0)': { member: members, stranger: 404 },
      'rest-v2 (3.0.3)': { member: members, stranger: 404 },
      'api-v1 (5.9.0)': { member: members, stranger: 404 },
      'api-v1 (sdk 17)': { member: members, stranger: 404 },
    });
  });
});

/**
 * The notifications service down while sharing commands run: the commands succeed (their events
 * wait in sync's outbox and on the stream), and once it is back every notification arrives,
 * once, and the recipients' next incremental syncs carry them.
 */
describe('sharing notifications across a notifications outage (cluster)', () => {
  // Its own: it stops and restarts notifications, which every suite on a shared system would meet.
  const { system, accounts: [a, b] } = useSystem('cluster', { accounts: 2, own: true });
  const asA = syncSession(() => system, () => a, 'outage-a');
  const asB = syncSession(() => system, () => b, 'outage-b');
  const notificationsOf = async (token: string, syncToken: string) => {
    const body = (await http(system.url, 'POST', '/api/v1/sync', { token, json: { sync_token: syncToken, resource_types: ['live_notifications'] } })).body;
    return body as { sync_token: string; live_notifications: Array<{ notification_type: string; invitation_id?: string; invitation_secret?: string }> };
  };
  /** Sync's events are relayed to the stream (while notifications, their consumer, is stopped). */
  const eventsOnTheStream = () =>
    waitFor(async () => (await system.sql<{ waiting: number }>('SELECT count(*)::int AS waiting FROM sync.outbox WHERE published_at IS NULL'))[0].waiting === 0 || undefined, "sync's outbox relayed");
  const typesFor = async (userId: string) =>
    (await system.sql<{ notification_type: string }>(`SELECT notification_type FROM notifications.live_notifications WHERE user_id = $1 ORDER BY notification_type`, [userId])).map((row) => row.notification_type);

  it('delivers every notification once after the consumer returns', async () => {
    const bBefore = await notificationsOf(b.token, '*');
    const aBefore = await notificationsOf(a.token, '*');

    await system.cluster!.stop('notifications');
    const shared = await asA.run({ type: 'project_add', temp_id: 'p', args: { name: 'Outage project' } }, { type: 'share_project', args: { project_id: 'p', email: b.email } });
    expect(shared.statuses).toEqual(['ok', 'ok']);
    await eventsOnTheStream();
    await system.cluster!.start('notifications');

    const invitation = await waitFor(async () => (await notificationsOf(b.token, bBefore.sync_token)).live_notifications.find((n) => n.notification_type === 'share_invitation_sent'), 'the invitation after the outage');
    expect((await asB.run({ type: 'accept_invitation', args: { invitation_id: invitation.invitation_id, invitation_secret: invitation.invitation_secret } })).statuses).toEqual(['ok']);
    await waitFor(async () => (await typesFor(a.userId)).includes('share_invitation_accepted') || undefined, 'the acceptance');

    await system.cluster!.stop('notifications');
    const projectId = shared.mapping['p'];
    const task = await asA.run({ type: 'item_add', temp_id: 't', args: { content: 'Assigned in the dark', project_id: projectId, responsible_uid: b.userId } });
    expect(task.statuses).toEqual(['ok']);
    const later = await asB.run({ type: 'note_add', args: { item_id: task.mapping['t'], content: 'Said while nobody listened' } }, { type: 'project_leave', args: { project_id: projectId } });
    expect(later.statuses).toEqual(['ok', 'ok']);
    await eventsOnTheStream();
    await system.cluster!.start('notifications');

    await waitFor(async () => ((await typesFor(a.userId)).length === 3 && (await typesFor(b.userId)).length === 2) || undefined, 'every notification');
    // Redeliveries (the stream's, the outbox relay's) would show here as a second row: wait until
    // every consumer has acknowledged all it was sent, so none is still on its way.
    await waitFor(async () => (await eventStreamDrained(streamNameFor(system.natsTransport!.subjectPrefix))) || undefined, 'every event acknowledged');
    expect(await typesFor(a.userId)).toEqual(['note_added', 'share_invitation_accepted', 'user_left_project']);
    expect(await typesFor(b.userId)).toEqual(['item_assigned', 'share_invitation_sent']);
    // And each recipient's incremental sync carries them.
    expect((await notificationsOf(a.token, aBefore.sync_token)).live_notifications.map((n) => n.notification_type).sort()).toEqual(['note_added', 'share_invitation_accepted', 'user_left_project']);
  });

  it('a live-notification command while notifications is down answers like every outage: HTTP 503 with Retry-After, then runs once', async () => {
    const commands = [
      { type: 'item_add', uuid: `dark-add-${a.userId}`, temp_id: 'dark', args: { content: 'Added beside a notification command' } },
      { type: 'live_notifications_mark_read_all', uuid: `dark-read-${a.userId}`, args: {} },
    ];
    await system.cluster!.stop('notifications');
    const refused = await http(system.url, 'POST', '/api/v1/sync', { token: a.token, json: { commands } });
    expect({ status: refused.status, retryAfter: refused.headers.get('retry-after'), tag: refused.body.error_tag }).toEqual({ status: 503, retryAfter: expect.stringMatching(/^[0-9]+$/), tag: 'SERVICE_UNAVAILABLE' });
    await system.cluster!.start('notifications');
    // The client's retry, same uuids: both run, the task once.
    const retried = await waitFor(async () => {
      const answer = await http(system.url, 'POST', '/api/v1/sync', { token: a.token, json: { commands } });
      return answer.status === 200 ? answer : undefined;
    }, 'the retry once notifications is back');
    expect(retried.body.sync_status).toEqual({ [`dark-add-${a.userId}`]: 'ok', [`dark-read-${a.userId}`]: 'ok' });
    const named = await system.sql<{ n: number }>(`SELECT count(*)::int AS n FROM sync.items WHERE user_id = $1 AND content = 'Added beside a notification command'`, [a.userId]);
    expect(named[0].n).toBe(1);
  });

  // Issue #44: someone signs up with another person's address; invitations to that address must not land in the account until it is proven.
  it("invites an account whose address is unproven as a stranger, and offers the invitation once the address confirms", async () => {
    const owner = await system.createAccount();
    const email = `unproven-${system.mode}-${Date.now()}@example.test`;
    const browser = new HttpBrowser(system.url);
    const form = await browser.get('/auth/signup');
    expect((await browser.submit('/auth/signup', form, { email, full_name: 'Unproven', password: 'a long enough password 44' })).status).toBe(201);
    const [{ id: userId }] = await system.sql<{ id: string }>('SELECT id::text AS id FROM auth.accounts WHERE email = $1', [email]);
    await waitFor(() => system.profileExists(userId), 'the profile of the signed-up account');

    const shared = await syncSession(() => system, () => owner, `unproven-${system.mode}`).run(
      { type: 'project_add', temp_id: 'p', args: { name: 'For the real owner' } },
      { type: 'share_project', args: { project_id: 'p', email } },
    );
    expect(shared.statuses).toEqual(['ok', 'ok']);
    await expect(system.sql('SELECT invitee_id FROM sync.project_invitations WHERE project_id = $1', [shared.mapping['p']])).resolves.toEqual([{ invitee_id: null }]);

    const [{ link }] = await waitFor(async () => {
      const rows = await system.sql<{ link: string }>(`SELECT payload->>'link' AS link FROM auth.outbox WHERE subject = 'auth.evt.address-confirmation-requested.v1' AND payload->>'userId' = $1`, [userId]);
      return rows.length > 0 ? rows : undefined;
    }, "the sign-up's confirmation link");
    const url = new URL(link);
    const page = await browser.get(`${url.pathname}${url.search}`);
    expect((await browser.submit('/auth/email/verify', page, { token: url.searchParams.get('token')! })).status).toBe(200);
    await waitFor(async () => (await system.sql<{ invitee_id: string | null }>('SELECT invitee_id::text AS invitee_id FROM sync.project_invitations WHERE project_id = $1', [shared.mapping['p']]))[0].invitee_id === userId || undefined, 'the invitation offered to the proven account');
  });
});
