import { randomUUID } from 'node:crypto';
import { http, pollsAnsweredByGateway, waitFor } from '@doable/shared-testing';
import type { RunningService } from '@doable/shared-runtime';
import { startExtraGateway } from './support/extra-gateway';
import { shareWith } from './support/sharing';
import { type Account, MODES } from './support/system-view';
import { useSystem } from './support/use-system';

const ROUNDS = 12;

/**
 * A repeated "nothing new" poll is answered by the gateway itself, and a write is never
 * followed by a stale "nothing new": in cluster mode the polls go to a second gateway replica
 * and the writes to the system's own, so the second learns of each write only through the
 * users-moved barrier sync raises before it answers (contracts-sync gateway-polls.ts). Each
 * round warms both users' answers at the polling gateway, writes (the Sync API and REST v2, by
 * the project's owner), and polls again at once: the writer and the collaborator both see it.
 */
describe.each(MODES)('polls answered by the gateway stay true after every write (%s)', (mode) => {
  const { system, accounts: [owner, member] } = useSystem(mode, { accounts: 2 });
  let second: RunningService | undefined;
  let pollUrl: string;
  let projectId: string;

  beforeAll(async () => {
    // A short lease: the second gateway gives answers a quarter lease after it registered.
    if (mode === 'cluster') second = await startExtraGateway(system, { REVOCATION_LEASE_MS: '2000' });
    pollUrl = second?.url ?? system.url;
    const added = await http(system.url, 'POST', '/rest/v2/projects', { token: owner.token, json: { name: 'Polled together' } });
    expect(added.status).toBe(200);
    projectId = added.body.id as string;
    await shareWith(system, owner, member, projectId);
  });

  afterAll(async () => {
    await second?.close();
  });

  const poll = async (account: Account, syncToken: string): Promise<{ sync_token: string; items: Array<{ id: string; content: string }> }> => {
    const response = await http(pollUrl, 'POST', '/api/v1/sync', { token: account.token, json: { sync_token: syncToken, resource_types: ['items'] } });
    expect(response.status).toBe(200);
    return response.body;
  };

  it('answers a repeated no-change poll without asking sync, and gives the same answer', async () => {
    const { sync_token: token } = await poll(owner, '*');
    const first = await poll(owner, token);
    // The second gateway waits out its warm-up: polls until it answers one itself.
    const answered = await waitFor(async () => {
      const before = await pollsAnsweredByGateway(pollUrl);
      const again = await poll(owner, token);
      return (await pollsAnsweredByGateway(pollUrl)) > before ? again : undefined;
    }, 'a poll answered by the gateway');
    expect(answered).toEqual(first);
    expect(answered.items).toEqual([]);
  });

  it('a write answered through one gateway is in the very next poll through the other, for the writer and a collaborator', async () => {
    const tokens = new Map<Account, string>();
    for (const account of [owner, member]) tokens.set(account, (await poll(account, '*')).sync_token);
    const hitsBefore = await pollsAnsweredByGateway(pollUrl);
    for (let round = 0; round < ROUNDS; round++) {
      // Warm: each user's "nothing new" is now the gateway's to give.
      for (const account of [owner, member]) {
        await poll(account, tokens.get(account)!);
        expect((await poll(account, tokens.get(account)!)).items).toEqual([]);
      }
      const content = `round ${round} ${randomUUID()}`;
      if (round % 2 === 0) {
        const uuid = randomUUID();
        const written = await http(system.url, 'POST', '/api/v1/sync', {
          token: owner.token,
          json: { commands: [{ type: 'item_add', uuid, temp_id: uuid, args: { content, project_id: projectId } }] },
        });
        expect(written.body.sync_status[uuid]).toBe('ok');
      } else {
        expect((await http(system.url, 'POST', '/rest/v2/tasks', { token: owner.token, json: { content, project_id: projectId } })).status).toBe(200);
      }
      for (const account of [owner, member]) {
        const after = await poll(account, tokens.get(account)!);
        expect(after.items.map((item) => item.content)).toEqual([content]);
        tokens.set(account, after.sync_token);
      }
    }
    // The rounds did exercise the gateway's answers: two users, a warm poll each, every round.
    expect((await pollsAnsweredByGateway(pollUrl)) - hitsBefore).toBeGreaterThanOrEqual(2 * ROUNDS);
  });
});
