import { http } from '@doable/shared-testing';
import type { RunningService } from '@doable/shared-runtime';
import { startExtraGateway } from './support/extra-gateway';
import { PushClient } from './support/push-client';
import { command, shareWith } from './support/sharing';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/**
 * How long a cue may take here. The bar is a second after the write's response; the bench
 * measures that (S12, push p99 on a quiet machine). A test on a loaded machine asserts that the
 * cue comes, and to whom, not how fast.
 */
const HEARD_WAIT_MS = 15_000;
const PING_SECONDS = '1';

/**
 * The push channel (public-api-facts §1.6): the user object's `websocket_url`, a WebSocket on the
 * gateway that says `sync_needed` when what the user sees changed, from any interface and any
 * replica, and `ping` every PUSH_PING_SECONDS. In cluster mode the clients connect to a second
 * gateway replica and every write goes through the first.
 */
describe.each(MODES)('push channel (%s)', (mode) => {
  const { system, accounts } = useSystem(mode, { accounts: 3, env: { PUSH_PING_SECONDS: PING_SECONDS } });
  const [me, collaborator, stranger] = [accounts[0], accounts[1], accounts[2]];
  let second: RunningService | undefined;
  /** Where clients sync and connect (the second replica in a cluster); writes go to system.url. */
  let listenUrl: string;
  const clients: PushClient[] = [];

  beforeAll(async () => {
    if (mode === 'cluster') second = await startExtraGateway(system, { PUSH_PING_SECONDS: PING_SECONDS });
    listenUrl = second?.url ?? system.url;
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await second?.close();
  });

  /** The user object's `websocket_url`, from a sync (the path given) or from REST's `GET /api/v1/user`. */
  async function websocketUrl(token: string, path = '/api/v1/sync'): Promise<string> {
    if (path === '/api/v1/user') {
      const user = await http(listenUrl, 'GET', path, { token });
      expect(user.status).toBe(200);
      return user.body.websocket_url as string;
    }
    const response = await http(listenUrl, 'POST', path, { token, json: { sync_token: '*', resource_types: ['user'] } });
    expect(response.status).toBe(200);
    return response.body.user.websocket_url as string;
  }

  async function connect(token: string, path?: string): Promise<PushClient> {
    const client = await PushClient.connect(await websocketUrl(token, path));
    clients.push(client);
    await client.settle();
    return client;
  }

  /** Runs a write and waits for the client to hear sync_needed after it was sent. */
  async function heard(client: PushClient, write: () => Promise<void>): Promise<void> {
    const started = performance.now();
    await write();
    await client.next('sync_needed', started, HEARD_WAIT_MS);
  }

  it('the user object (sync, and REST GET /api/v1/user) names a ws:// URL on the gateway the client used, with a push token (not the API token)', async () => {
    for (const path of ['/api/v1/sync', '/sync/v9/sync', '/api/v1/user']) {
      const url = new URL(await websocketUrl(me.token, path));
      expect(`${url.protocol}//${url.host}`).toBe(listenUrl.replace(/^http/, 'ws'));
      expect(url.pathname).toBe('/ws');
      expect(url.searchParams.get('token')).toMatch(new RegExp(`^${me.userId}\\.[0-9]+\\.[A-Za-z0-9_-]{43}$`));
      expect(url.toString()).not.toContain(me.token);
    }
  });

  it('a sync command (through the other replica, in a cluster) is heard', async () => {
    const client = await connect(me.token);
    await heard(client, async () => {
      expect(await command(system, me, 'item_add', { content: 'pushed' })).toBe('ok');
    });
  });

  it('a REST v2 write is heard, on the channel REST GET /api/v1/user names', async () => {
    const client = await connect(me.token, '/api/v1/user');
    await heard(client, async () => {
      expect((await http(system.url, 'POST', '/rest/v2/tasks', { token: me.token, json: { content: 'pushed by REST' } })).status).toBe(200);
    });
  });

  it("a collaborator hears a change in a shared project; a stranger hears nothing of it", async () => {
    const project = (await http(system.url, 'POST', '/rest/v2/projects', { token: me.token, json: { name: 'Pushed together' } })).body as { id: string };
    await shareWith(system, me, collaborator, project.id);
    const theirs = await connect(collaborator.token);
    const strangers = await connect(stranger.token);

    await heard(theirs, async () => {
      expect(await command(system, me, 'item_add', { content: 'for both of us', project_id: project.id })).toBe('ok');
    });

    // The sentinel: the stranger's own change reaches it on the same replica after the shared
    // one did, so anything the shared change sent the stranger would have arrived before it.
    const since = performance.now();
    expect(await command(system, stranger, 'item_add', { content: 'mine alone' })).toBe('ok');
    await strangers.next('sync_needed', since, HEARD_WAIT_MS);
    expect(strangers.received('sync_needed')).toHaveLength(1);
  });

  it('a removed collaborator is told of the removal', async () => {
    const project = (await http(system.url, 'POST', '/rest/v2/projects', { token: me.token, json: { name: 'Pushed apart' } })).body as { id: string };
    await shareWith(system, me, collaborator, project.id);
    const theirs = await connect(collaborator.token);
    await heard(theirs, async () => {
      expect(await command(system, me, 'delete_collaborator', { project_id: project.id, email: collaborator.email })).toBe('ok');
    });
  });

  it('every socket hears a ping every PUSH_PING_SECONDS', async () => {
    const client = await connect(me.token);
    const since = performance.now();
    const first = await client.next('ping', since, HEARD_WAIT_MS);
    await client.next('ping', first.at + 1, HEARD_WAIT_MS);
  });

  it('an API token in Authorization is accepted on /ws (clients that can set headers)', async () => {
    const client = await PushClient.connect(`${listenUrl.replace(/^http/, 'ws')}/ws`, { authorization: `Bearer ${me.token}` });
    clients.push(client);
    const since = performance.now();
    expect(await command(system, me, 'item_add', { content: 'heard by a bearer socket' })).toBe('ok');
    await client.next('sync_needed', since, HEARD_WAIT_MS);
    // A token that may only add tasks does not hear when data changes.
    const addOnly = await system.createScopedToken(me.userId, ['task:add']);
    const refused = await PushClient.refusal(`${listenUrl.replace(/^http/, 'ws')}/ws`, { authorization: `Bearer ${addOnly}` });
    expect(refused).toEqual({ status: 403, body: expect.objectContaining({ error_tag: 'FORBIDDEN' }) });
  });

  it('a forged, foreign, expired-looking or missing credential is refused with a coded 401 and no upgrade', async () => {
    const url = new URL(await websocketUrl(me.token));
    const [userId, expiresAt, signature] = url.searchParams.get('token')!.split('.');
    const forged = [
      `${stranger.userId}.${expiresAt}.${signature}`,
      `${userId}.${Number(expiresAt) + 1}.${signature}`,
      `${userId}.${expiresAt}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`,
      me.token,
      'garbage',
    ];
    for (const token of forged) {
      url.searchParams.set('token', token);
      const refused = await PushClient.refusal(url.toString());
      expect(refused).toEqual({ status: 401, body: expect.objectContaining({ error_tag: 'AUTH_INVALID_TOKEN', http_code: 401 }) });
    }
    const bare = `${listenUrl.replace(/^http/, 'ws')}/ws`;
    expect((await PushClient.refusal(bare)).status).toBe(401);
    expect((await PushClient.refusal(bare, { authorization: 'Bearer not-a-token' })).status).toBe(401);
    expect((await PushClient.refusal(`${listenUrl.replace(/^http/, 'ws')}/elsewhere`)).status).toBe(404);
  });
});
