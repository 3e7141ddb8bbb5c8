import 'reflect-metadata';
import { AccountService, CommandLogRepository } from '@doable/auth-oauth';
import { createServiceDataSource, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import type { EventBus } from '@doable/shared-transport';
import { waitFor } from '@doable/shared-testing';
import { Client } from 'pg';

export interface BenchAccount {
  readonly userId: string;
  readonly token: string;
}

export interface BenchUser extends BenchAccount {
  /** The token of the user's initial full sync: an incremental sync from it sees no change. */
  readonly syncToken: string;
}

export function benchEmail(runId: string, index: number): string {
  return `bench-${index}@${runId}.bench.test`;
}

/**
 * Creates accounts the way the operator CLI does (AccountService writing the account, the
 * hashed personal token and the user-created event to the outbox in one transaction), but in
 * this process: 200 CLI processes would take minutes, this takes a second or two. The running
 * system relays the events and builds each profile and Inbox, exactly as after the CLI.
 */
export async function createAccounts(databaseUrl: string, runId: string, count: number, password?: string): Promise<BenchAccount[]> {
  const logger = createLogger('bench', 'warn');
  const dataSource = createServiceDataSource({ schema: 'auth', url: databaseUrl, poolSize: 4, applicationName: 'bench-accounts', migrations: [] });
  await dataSource.initialize();
  try {
    // Only the outbox is written here; the system's own relay publishes (as with the CLI).
    const idle: EventBus = { publish: () => Promise.resolve(), publishAll: () => Promise.reject(new Error('unused')), consume: () => Promise.reject(new Error('unused')), broadcast: () => Promise.reject(new Error('unused')), isConnected: () => true, close: () => Promise.resolve() };
    const accounts = new AccountService(new Database(dataSource, 'auth', new OutboxRelay(dataSource, 'auth', idle, logger)), new CommandLogRepository());
    const created: BenchAccount[] = [];
    for (let index = 0; index < count; index++) {
      // A password (S12's users log in to allow an app) costs a scrypt hash each, about 0.1 s.
      created.push(await accounts.create({ email: benchEmail(runId, index), fullName: `Bench User ${index}`, timezone: 'UTC', ...(password === undefined ? {} : { password }) }));
    }
    return created;
  } finally {
    await dataSource.destroy();
  }
}

/**
 * Waits (bounded) until sync has built every profile from the user-created events, and holds
 * every user's plan (the bench catalogue's roomy default, announced by the plans service): until
 * then a user is on the built-in free plan, whose 5 projects S8 would outgrow.
 */
export async function waitForProfiles(databaseUrl: string, userIds: readonly string[], boundMs = 60_000): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await waitFor(
      async () => {
        const { rows } = await client.query<{ profiles: string; plans: string }>(
          `SELECT (SELECT count(*) FROM sync.users WHERE id = ANY($1::bigint[]))::text AS profiles,
                  (SELECT count(*) FROM sync.user_plans WHERE user_id = ANY($1::bigint[]))::text AS plans`,
          [userIds],
        );
        return Number(rows[0].profiles) === userIds.length && Number(rows[0].plans) === userIds.length;
      },
      `${userIds.length} sync profiles and plans`,
      boundMs,
    );
  } finally {
    await client.end();
  }
}

export interface SyncAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export async function postSync(gatewayUrl: string, token: string, payload: Record<string, unknown>, timeoutMs?: number): Promise<SyncAnswer> {
  const { status, text } = await postSyncText(gatewayUrl, token, payload, timeoutMs);
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = { raw: text };
  }
  return { status, body };
}

/** The answer as it arrives, unparsed: what a timed request should wait for (S3 parses outside the clock). */
export async function postSyncText(
  gatewayUrl: string,
  token: string,
  payload: Record<string, unknown>,
  timeoutMs = 10_000,
  path = '/api/v1/sync',
): Promise<{ status: number; text: string }> {
  const response = await fetch(new URL(path, gatewayUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: response.status, text: await response.text() };
}

/**
 * Each user's first full sync through the product (as a client's first start does); its
 * token is where the user's polling starts. Also warms the gateway's token cache, as a
 * running system's would be.
 */
export async function initialFullSyncs(gatewayUrl: string, accounts: readonly BenchAccount[], concurrency = 8): Promise<BenchUser[]> {
  const users: BenchUser[] = new Array<BenchUser>(accounts.length);
  let next = 0;
  const worker = async () => {
    while (next < accounts.length) {
      const index = next++;
      const account = accounts[index];
      const answer = await waitFor(async () => {
        const result = await postSync(gatewayUrl, account.token, { sync_token: '*', resource_types: ['all'] });
        return result.status === 200 ? result : undefined;
      }, `the full sync of user ${account.userId}`);
      const syncToken = answer.body['sync_token'];
      if (typeof syncToken !== 'string') throw new Error(`full sync of ${account.userId} has no sync_token`);
      users[index] = { ...account, syncToken };
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return users;
}
