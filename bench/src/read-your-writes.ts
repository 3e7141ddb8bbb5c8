import { randomUUID } from 'node:crypto';
import { pollsAnsweredByGateway } from '@doable/shared-testing';
import { type BenchUser, postSync } from './accounts';

export interface ReadYourWrites {
  readonly rounds: number;
  /** Polls after an answered write that did not carry it: each one a broken promise. */
  readonly stale: number;
  /** Requests that did not answer 200 (or a write not `ok`): the round did not count. */
  readonly failed: number;
  /** Warm polls the polling gateway answered itself (its doable_gateway_sync_polls_total hits). */
  readonly answeredByGateway: number;
}

/**
 * The promise the gateways' own answers to polls must keep (contracts-sync gateway-polls.ts): a
 * write answered by one gateway is never followed by a stale "nothing new" from another. Each
 * round warms the user's "nothing new" at `pollUrl` (two polls with the same token), writes one
 * item_add through `writeUrl`, and polls `pollUrl` again with that token at once: the item must
 * be there. Runs one round at a time, beside whatever load the caller runs.
 */
export async function probeReadYourWrites(writeUrl: string, pollUrl: string, user: BenchUser, rounds: number): Promise<ReadYourWrites> {
  const hitsBefore = await pollsAnsweredByGateway(pollUrl);
  let syncToken: string | undefined;
  let stale = 0;
  let failed = 0;
  const read = (token: string) => postSync(pollUrl, user.token, { sync_token: token, resource_types: ['items'] });
  for (let round = 0; round < rounds; round++) {
    if (!syncToken) {
      const full = await read('*');
      if (full.status !== 200) {
        failed++;
        continue;
      }
      syncToken = full.body['sync_token'] as string;
    }
    await read(syncToken);
    const warm = await read(syncToken);
    const uuid = randomUUID();
    const content = `read-your-writes ${round} ${uuid}`;
    const written = await postSync(writeUrl, user.token, { commands: [{ type: 'item_add', uuid, temp_id: randomUUID(), args: { content } }] });
    const after = await read(syncToken);
    if (warm.status !== 200 || written.status !== 200 || (written.body['sync_status'] as Record<string, unknown> | undefined)?.[uuid] !== 'ok' || after.status !== 200) {
      failed++;
      syncToken = undefined;
      continue;
    }
    const items = after.body['items'] as Array<{ content: string }>;
    if (!items.some((item) => item.content === content)) stale++;
    syncToken = after.body['sync_token'] as string;
  }
  return { rounds, stale, failed, answeredByGateway: (await pollsAnsweredByGateway(pollUrl)) - hitsBefore };
}
