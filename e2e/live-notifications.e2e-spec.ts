import { http } from '@doable/shared-testing';
import { notificationsMigrations } from '@doable/notifications';
import { syncSession } from './support/sync-session';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/**
 * The live_notifications_* commands: forwarded to the notifications service before the
 * request's transaction, and seen by the next incremental sync (changed notifications only).
 */
describe.each(MODES)('live notification commands (%s)', (mode) => {
  const { system, accounts: [account, stranger] } = useSystem(mode, { accounts: 2 });
  const ids: string[] = [];
  let theirs: string;
  const { sync, run } = syncSession(() => system, () => account, 'ln');
  const read = (token: string) => sync({ sync_token: token, resource_types: ['live_notifications'] });
  /**
   * The unread flags of the notifications this suite made. Only those: the account's own events
   * (a plan assigned, say) may add a notification of their own at any moment, and on a loaded
   * machine one landed in the middle of a test (issue #45).
   */
  const unread = (body: { live_notifications: Array<{ id: string; is_unread: boolean }> }) =>
    Object.fromEntries(body.live_notifications.filter((notification) => ids.includes(notification.id) || notification.id === theirs).map((notification) => [notification.id, notification.is_unread]));

  /**
   * `unread(body)` is `expected`; when not, the failure carries the account's rows with their
   * change sequence and the token's cursor (a CI run once re-sent an unchanged one: issue #45).
   */
  async function expectUnread(body: { sync_token: string; live_notifications: Array<{ id: string; is_unread: boolean }> }, since: string, expected: Record<string, boolean>): Promise<void> {
    const seen = unread(body);
    if (JSON.stringify(Object.entries(seen).sort()) === JSON.stringify(Object.entries(expected).sort())) return;
    const rows = await system.sql<{ id: string; seq: string; is_unread: boolean }>(`SELECT id::text, seq::text, is_unread FROM notifications.live_notifications WHERE user_id = $1 ORDER BY live_notifications.seq`, [account.userId]);
    const cursor = (token: string) => (token === '*' ? '*' : Buffer.from(token, 'base64url').toString('utf8'));
    expect({ seen, rows, since: cursor(since), answered: cursor(body.sync_token) }).toEqual({ seen: expected, rows, since: cursor(since), answered: cursor(body.sync_token) });
  }

  async function notify(userId: string, key: string): Promise<string> {
    const [row] = await system.sql<{ id: string }>(
      `INSERT INTO notifications.live_notifications (user_id, notification_key, notification_type, data) VALUES ($1, $2, 'note_added', '{}') RETURNING id::text`,
      [userId, `${key}-${userId}`],
    );
    return row.id;
  }

  beforeAll(async () => {
    for (const key of ['first', 'second', 'third']) ids.push(await notify(account.userId, key));
    theirs = await notify(stranger.userId, 'private');
  });

  it('marks read and unread, moves the last-read marker, and reads everything; each change shows in the next sync', async () => {
    const [first, second, third] = ids as [string, string, string];
    const full = await read('*');
    expect(unread(full)).toEqual({ [first]: true, [second]: true, [third]: true });
    expect(full.live_notifications_last_read_id).toBeNull();

    expect((await run({ type: 'live_notifications_mark_read', args: { ids: [first] } })).statuses).toEqual(['ok']);
    const afterRead = await read(full.sync_token);
    await expectUnread(afterRead, full.sync_token, { [first]: false });

    expect((await run({ type: 'live_notifications_mark_unread', args: { ids: [Number(first)] } })).statuses).toEqual(['ok']);
    const afterUnread = await read(afterRead.sync_token);
    await expectUnread(afterUnread, afterRead.sync_token, { [first]: true });

    expect((await run({ type: 'live_notifications_set_last_read', args: { id: second } })).statuses).toEqual(['ok']);
    const afterMarker = await read(afterUnread.sync_token);
    await expectUnread(afterMarker, afterUnread.sync_token, { [first]: false, [second]: false });
    expect(afterMarker.live_notifications_last_read_id).toBe(second);

    expect((await run({ type: 'live_notifications_mark_read_all', args: {} })).statuses).toEqual(['ok']);
    const afterAll = await read(afterMarker.sync_token);
    await expectUnread(afterAll, afterMarker.sync_token, { [third]: false });
    expect(afterAll.live_notifications_last_read_id).toBe(third);

    // Nothing changed since: nothing is sent again.
    await expectUnread(await read(afterAll.sync_token), afterAll.sync_token, {});
  });

  it("changes nothing of another user's notifications", async () => {
    expect((await run({ type: 'live_notifications_mark_read', args: { ids: [theirs] } })).statuses).toEqual(['ok']);
    const asStranger = await sync({ sync_token: '*', resource_types: ['live_notifications'] }, '/api/v1/sync', stranger.token);
    expect(unread(asStranger)).toEqual({ [theirs]: true });
  });

  it('refuses malformed arguments with a coded error naming them', async () => {
    const { statuses } = await run(
      { type: 'live_notifications_mark_read', args: { ids: 'all of them' } },
      { type: 'live_notifications_mark_unread', args: {} },
      { type: 'live_notifications_set_last_read', args: { id: 'latest' } },
    );
    expect(statuses.map((status) => [status.error_tag, status.error_extra?.argument])).toEqual([
      ['INVALID_ARGUMENT_VALUE', 'ids'],
      ['INVALID_ARGUMENT_VALUE', 'ids'],
      ['INVALID_ARGUMENT_VALUE', 'id'],
    ]);
  });

  it('speaks v8: one id to mark read or unread, integer ids, created in epoch seconds, 0/1 flags', async () => {
    const v8User = await system.createAccount();
    const [one, two] = [await notify(v8User.userId, 'v8-one'), await notify(v8User.userId, 'v8-two')];
    const v8 = (body: Record<string, unknown>) => sync(body, '/sync/v8/sync', v8User.token);
    // Only this test's two (see `unread` above).
    const mine = (list: Array<{ id: number }>) => list.filter((notification) => notification.id === Number(one) || notification.id === Number(two));
    const full = await v8({ sync_token: '*', resource_types: ['live_notifications'] });
    expect(mine(full.live_notifications)).toEqual([
      expect.objectContaining({ id: Number(one), is_unread: 1, created: expect.any(Number) }),
      expect.objectContaining({ id: Number(two), is_unread: 1 }),
    ]);
    expect(mine(full.live_notifications)[0]).not.toHaveProperty('created_at');
    expect(full.live_notifications_last_read_id).toBe(0);

    const marked = await v8({ commands: [{ type: 'live_notifications_mark_read', uuid: `${mode}-v8-read`, args: { id: Number(one) } }], sync_token: full.sync_token, resource_types: ['live_notifications'] });
    expect(marked.sync_status[`${mode}-v8-read`]).toBe('ok');
    expect(mine(marked.live_notifications)).toEqual([expect.objectContaining({ id: Number(one), is_unread: 0 })]);

    const unmarked = await v8({ commands: [{ type: 'live_notifications_mark_unread', uuid: `${mode}-v8-unread`, args: { id: Number(one) } }], sync_token: marked.sync_token, resource_types: ['live_notifications'] });
    expect(mine(unmarked.live_notifications)).toEqual([expect.objectContaining({ id: Number(one), is_unread: 1 })]);

    const last = await v8({ commands: [{ type: 'live_notifications_set_last_read', uuid: `${mode}-v8-last`, args: { id: Number(two) } }], sync_token: unmarked.sync_token, resource_types: ['live_notifications'] });
    expect(last.live_notifications_last_read_id).toBe(Number(two));
  });

  it('writes created_at with six fraction digits, project_archived\'s project_id per generation, and teams_workspace_* workspace_id as an integer', async () => {
    const reader = await system.createAccount();
    const projectId = '2200000777';
    await system.sql(
      `INSERT INTO notifications.live_notifications (user_id, notification_key, notification_type, data) VALUES
         ($1, $2, 'project_archived', jsonb_build_object('project_id', $4::text, 'project_name', 'Roadmap')),
         ($1, $3, 'teams_workspace_upgraded', '{"workspace_id": "8800000777", "workspace_name": "Acme", "plan_type": "BUSINESS"}')`,
      [reader.userId, `archived-${reader.userId}`, `upgraded-${reader.userId}`, projectId],
    );
    // Stored before the producers wrote integers: the migration turns the string.
    const migration = notificationsMigrations.find((candidate) => candidate.name === 'TeamsWorkspaceIdInteger1764090000300')!;
    await new migration().up({ query: (sql: string) => system.sql(sql) } as never);
    const byType = (list: Array<Record<string, unknown>>) => Object.fromEntries(list.map((n) => [n['notification_type'], n]));
    const read = { sync_token: '*', resource_types: ['live_notifications'] };

    // api/v1: the SDK validates projectId as a string; every timestamp has six fraction digits.
    const v1 = byType((await sync(read, '/api/v1/sync', reader.token)).live_notifications);
    expect(v1['project_archived']).toMatchObject({ project_id: projectId, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/) });
    expect(v1['teams_workspace_upgraded']).toMatchObject({ workspace_id: 8800000777, workspace_name: 'Acme' });

    // v9 (no validating reader): the spec's integer.
    const v9 = byType((await sync(read, '/sync/v9/sync', reader.token)).live_notifications);
    expect(v9['project_archived']).toMatchObject({ project_id: Number(projectId), created_at: v1['project_archived']!['created_at'] });
    expect(v9['teams_workspace_upgraded']).toMatchObject({ workspace_id: 8800000777 });

    // v7 and v6 (v6's keys in CamelCase), over the form with the token field.
    const legacy = async (path: string, fields: Record<string, string>) => {
      const response = await http(system.url, 'POST', path, { form: { ...fields, resource_types: '["live_notifications"]', token: reader.token } });
      expect(response.status).toBe(200);
      return response.body as Record<string, Array<Record<string, unknown>>>;
    };
    expect(byType((await legacy('/API/v7/sync', { sync_token: '*' })).live_notifications)['project_archived']).toMatchObject({ project_id: Number(projectId) });
    expect(byType((await legacy('/API/v6/sync', { seq_no: '0' })).LiveNotifications)['project_archived']).toMatchObject({ project_id: Number(projectId) });
  });

  it('hands the command uuid to the notifications service, which runs each uuid once (a resent request may arrive after later commands)', async () => {
    const uuid = `${mode}-ln-once`;
    const response = await sync({ commands: [{ type: 'live_notifications_mark_read_all', uuid, args: {} }] });
    expect(response.sync_status[uuid]).toBe('ok');
    const logged = await system.sql<{ uuid: string }>(`SELECT uuid FROM notifications.command_log WHERE user_id = $1 AND uuid = $2`, [account.userId, uuid]);
    expect(logged).toEqual([{ uuid }]);
  });

  it('needs a token that may write', async () => {
    const reader = await system.createScopedToken(account.userId, ['data:read']);
    const response = await sync({ commands: [{ type: 'live_notifications_mark_read_all', uuid: `${mode}-ln-scoped`, args: {} }] }, '/api/v1/sync', reader);
    expect(response.sync_status[`${mode}-ln-scoped`]).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
  });
});
