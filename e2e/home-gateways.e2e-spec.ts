import { randomUUID } from 'node:crypto';
import { homeKey, homeKeyOfToken, homeRing } from '@doable/contracts-common';
import type { RunningService } from '@doable/shared-runtime';
import { gatewayCounter, http, pollsAnsweredByGateway, waitFor } from '@doable/shared-testing';
import { startExtraGateway } from './support/extra-gateway';
import { PushClient } from './support/push-client';
import { shareWith } from './support/sharing';
import type { Account } from './support/system-view';
import { useSystem } from './support/use-system';

/** The gateways' own lease: a named gateway keeps a user's answers a lease after its view settled. */
const LEASE_MS = '2000';
const NAMES = ['home-a:8080', 'home-b:8080', 'home-c:8080'];
const ROUNDS = 6;
const HEARD_WAIT_MS = 15_000;

/**
 * Home gateways (docs/operations/home-gateways.md), in a cluster: three named gateways beside the
 * system's own (unnamed, so everyone's, as a release before homes). The test routes as a
 * balancer configured with `hash <home key> consistent` over the three names would: by the last
 * eight hex digits of the bearer token. Each user's polls are answered from memory only at its
 * home, a write through any other gateway is in the next poll there, a poll at a gateway that is
 * not the user's home is forwarded (never stale, never from memory), and a write costs one
 * users-moved request to the writer's home, none to the other named gateways.
 */
describe('home gateways (cluster)', () => {
  const { system, accounts: [owner, member] } = useSystem('cluster', { accounts: 2 });
  const started: RunningService[] = [];
  const urlOf = new Map<string, string>();
  const ring = homeRing('nginx', NAMES);
  let projectId: string;

  /** Where a balancer sends this account's requests: the ring's pick for its token's home key. */
  const homeOf = (account: Account) => ring.homeOf(homeKeyOfToken(account.token)!)!;
  const homeUrl = (account: Account) => urlOf.get(homeOf(account))!;
  /** A named gateway that is neither user's home (three gateways, two users: there is one). */
  const awayName = () => NAMES.find((name) => name !== homeOf(owner) && name !== homeOf(member))!;
  const awayUrl = () => urlOf.get(awayName())!;

  beforeAll(async () => {
    for (const name of NAMES) {
      const gateway = await startExtraGateway(system, { GATEWAY_HOME_NAME: name, REVOCATION_LEASE_MS: LEASE_MS });
      started.push(gateway);
      urlOf.set(name, gateway.url);
    }
    const added = await http(system.url, 'POST', '/rest/v2/projects', { token: owner.token, json: { name: 'At home together' } });
    expect(added.status).toBe(200);
    projectId = added.body.id as string;
    await shareWith(system, owner, member, projectId);
  });

  afterAll(async () => {
    for (const gateway of started) await gateway.close();
  });

  const poll = async (url: string, account: Account, syncToken: string): Promise<{ sync_token: string; items: Array<{ content: string }> }> => {
    const response = await http(url, 'POST', '/api/v1/sync', { token: account.token, json: { sync_token: syncToken, resource_types: ['items'] } });
    expect(response.status).toBe(200);
    return response.body;
  };

  const write = async (url: string, content: string, how: 'sync' | 'rest' = 'sync'): Promise<void> => {
    if (how === 'rest') {
      expect((await http(url, 'POST', '/rest/v2/tasks', { token: owner.token, json: { content, project_id: projectId } })).status).toBe(200);
      return;
    }
    const uuid = randomUUID();
    const written = await http(url, 'POST', '/api/v1/sync', { token: owner.token, json: { commands: [{ type: 'item_add', uuid, temp_id: uuid, args: { content, project_id: projectId } }] } });
    expect(written.body.sync_status[uuid]).toBe('ok');
  };

  /** Polls at the account's home until the home answers one itself: its homes have settled. */
  const settledAt = async (url: string, account: Account, syncToken: string): Promise<void> => {
    await waitFor(async () => {
      const before = await pollsAnsweredByGateway(url);
      await poll(url, account, syncToken);
      return (await pollsAnsweredByGateway(url)) > before;
    }, `the home of ${account.userId} to answer its polls itself`);
  };

  it("every credential made for a user carries the user's home key, where a balancer reads it", async () => {
    expect(homeKeyOfToken(owner.token)).toBe(homeKey(owner.userId));
    expect(homeKeyOfToken(member.token)).toBe(homeKey(member.userId));
    const user = await http(homeUrl(owner), 'POST', '/api/v1/sync', { token: owner.token, json: { sync_token: '*', resource_types: ['user'] } });
    expect(new URL(user.body.user.websocket_url as string).searchParams.get('home')).toBe(homeKey(owner.userId));
  });

  it('a write through another gateway is in the very next poll at the home, which answers the warm polls itself; for the writer and a collaborator', async () => {
    const tokens = new Map<Account, string>();
    for (const account of [owner, member]) {
      tokens.set(account, (await poll(homeUrl(account), account, '*')).sync_token);
      await settledAt(homeUrl(account), account, tokens.get(account)!);
    }
    const hitsBefore = new Map([owner, member].map((account) => [account, 0]));
    for (const account of [owner, member]) hitsBefore.set(account, await pollsAnsweredByGateway(homeUrl(account)));
    for (let round = 0; round < ROUNDS; round++) {
      for (const account of [owner, member]) {
        await poll(homeUrl(account), account, tokens.get(account)!);
        expect((await poll(homeUrl(account), account, tokens.get(account)!)).items).toEqual([]);
      }
      const content = `round ${round} ${randomUUID()}`;
      // Through a gateway that is home to neither, or the system's own (everyone's), by turns.
      await write(round % 2 === 0 ? awayUrl() : system.url, content, round % 4 < 2 ? 'sync' : 'rest');
      for (const account of [owner, member]) {
        const after = await poll(homeUrl(account), account, tokens.get(account)!);
        expect(after.items.map((item) => item.content)).toEqual([content]);
        tokens.set(account, after.sync_token);
      }
    }
    // Not vacuous: each home answered each warm poll of its user itself.
    const sameHome = homeOf(owner) === homeOf(member);
    for (const account of [owner, member]) {
      const hits = (await pollsAnsweredByGateway(homeUrl(account))) - hitsBefore.get(account)!;
      expect(hits).toBeGreaterThanOrEqual((sameHome ? 2 : 1) * ROUNDS);
    }
  });

  it('a poll at a gateway that is not the user\'s home is forwarded every time, and never stale', async () => {
    const away = awayUrl();
    let token = (await poll(away, owner, '*')).sync_token;
    const hitsBefore = await pollsAnsweredByGateway(away);
    const notHomeBefore = await gatewayCounter(away, 'doable_gateway_sync_polls_total', { outcome: 'not-home' });
    for (let round = 0; round < ROUNDS; round++) {
      // The same poll twice: a gateway keeping answers would give the second from memory.
      await poll(away, owner, token);
      expect((await poll(away, owner, token)).items).toEqual([]);
      const content = `away ${round} ${randomUUID()}`;
      await write(homeUrl(owner), content);
      const after = await poll(away, owner, token);
      expect(after.items.map((item) => item.content)).toEqual([content]);
      token = after.sync_token;
    }
    expect(await pollsAnsweredByGateway(away)).toBe(hitsBefore);
    expect((await gatewayCounter(away, 'doable_gateway_sync_polls_total', { outcome: 'not-home' })) - notHomeBefore).toBe(3 * ROUNDS);
  });

  it("a write costs one users-moved request, to the writer's home, and none to the other named gateways", async () => {
    const alone = await system.createAccount();
    const home = homeOf(alone);
    const moved = () => Promise.all(NAMES.map((name) => gatewayCounter(urlOf.get(name)!, 'doable_gateway_users_moved_total')));
    const addFor = async (content: string) => {
      const uuid = randomUUID();
      const written = await http(urlOf.get(home)!, 'POST', '/api/v1/sync', { token: alone.token, json: { commands: [{ type: 'item_add', uuid, temp_id: uuid, args: { content } }] } });
      expect(written.body.sync_status[uuid]).toBe('ok');
    };
    // Sync tells the homes of every recent view for a lease of its own after the gateways joined: waited out.
    await waitFor(async () => {
      const before = await moved();
      await addFor(`settling ${randomUUID()}`);
      const after = await moved();
      return NAMES.every((name, index) => after[index] - before[index] === (name === home ? 1 : 0));
    }, 'sync to tell the home only');
    const before = await moved();
    for (let write = 0; write < ROUNDS; write++) await addFor(`one home ${write}`);
    const after = await moved();
    for (const [index, name] of NAMES.entries()) expect(after[index] - before[index]).toBe(name === home ? ROUNDS : 0);
  });

  it('a push socket at its home hears a write with the barrier, one away from it by the broadcast', async () => {
    const websocketUrl = async (url: string) => {
      const response = await http(url, 'POST', '/api/v1/sync', { token: owner.token, json: { sync_token: '*', resource_types: ['user'] } });
      return response.body.user.websocket_url as string;
    };
    const atHome = await PushClient.connect(await websocketUrl(homeUrl(owner)));
    const away = await PushClient.connect(await websocketUrl(awayUrl()));
    try {
      await atHome.settle();
      await away.settle();
      const broadcastsAway = await gatewayCounter(awayUrl(), 'doable_gateway_push_broadcasts_total');
      const since = performance.now();
      await write(system.url, `pushed ${randomUUID()}`);
      await atHome.next('sync_needed', since, HEARD_WAIT_MS);
      await away.next('sync_needed', since, HEARD_WAIT_MS);
      // The away gateway heard it by broadcast, as it holds a socket of a user it is not home of.
      expect(await gatewayCounter(awayUrl(), 'doable_gateway_push_broadcasts_total')).toBeGreaterThan(broadcastsAway);
    } finally {
      atHome.close();
      away.close();
    }
  });

  it("when a user's home leaves, its next home serves the user correctly, and in time from memory", async () => {
    const leaving = homeOf(owner);
    const gone = started.splice(NAMES.indexOf(leaving), 1)[0];
    // The rest keep running: the test routes as a balancer whose upstreams lost the leaver.
    const rest = NAMES.filter((name) => name !== leaving);
    const next = homeRing('nginx', rest).homeOf(homeKey(owner.userId))!;
    await gone.close();
    const url = urlOf.get(next)!;
    let token = (await poll(url, owner, '*')).sync_token;
    for (let round = 0; round < ROUNDS; round++) {
      await poll(url, owner, token);
      const content = `moved home ${round} ${randomUUID()}`;
      await write(system.url, content);
      const after = await poll(url, owner, token);
      expect(after.items.map((item) => item.content)).toEqual([content]);
      token = after.sync_token;
    }
    await settledAt(url, owner, token);
  });
});
