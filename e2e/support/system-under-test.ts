import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'pg';
import { AccountService } from '@doable/auth-oauth';
import { AuthSubjects } from '@doable/contracts-auth';
import type { Scope } from '@doable/contracts-common';
import { SyncSubjects } from '@doable/contracts-sync';
import type { ServiceName } from '@doable/shared-runtime';
import { createTestDatabase, deleteEventStream, TEST_NATS_URL, uniqueSubjectPrefix, waitFor } from '@doable/shared-testing';
import { BLOB_STORE, type BlobStore, defaultStorageBucket, LocalBlobStore, objectStoreStreamName } from '@doable/shared-storage';
import { ServiceClient, streamNameFor } from '@doable/shared-transport';
import { COMMAND_HANDLERS, type CommandHandler } from '@doable/sync';
import { type ClusterSystem, type EmbeddedSystem, startClusterSystem, startEmbeddedSystem } from '@doable/system';
import { scopedTokenThroughOAuth } from './oauth-flow';

export type Mode = 'embedded' | 'cluster';
export const MODES: Mode[] = ['embedded', 'cluster'];

export interface Account {
  readonly userId: string;
  readonly email: string;
  readonly token: string;
}

/** The whole system, started in one of its two modes, with what the tests need to drive it. */
export interface SystemUnderTest {
  readonly mode: Mode;
  readonly url: string;
  /** The system's PostgreSQL (PGlite's wire endpoint when embedded). */
  readonly databaseUrl: string;
  /** Creates an account through auth-oauth's subject and (unless told not to) waits for its sync profile. */
  /** A new account; with `password`, one that can log in to the pages (and must give it to change credentials). */
  createAccount(options?: { waitForProfile?: boolean; password?: string }): Promise<Account>;
  profileExists(userId: string): Promise<boolean>;
  /** A token limited to some scopes, obtained through the real OAuth flow (HTTP, no browser). */
  createScopedToken(userId: string, scopes: Scope[]): Promise<string>;
  /** Replaces an account's personal token (as the settings page and the CLI do). */
  resetToken(email: string): Promise<string>;
  /** Reads the system's database directly, to observe what no endpoint shows yet. */
  sql<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Every command type the Sync API runs (the sync service's registered handlers). */
  commandTypes(): string[];
  /**
   * What the gateway's blob store holds under `prefix` (default: every uploaded or imported
   * file), and, for the local store, any partial file a put left behind (as `partial:<path>`).
   */
  storedFiles(prefix?: string): Promise<string[]>;
  /** Cluster mode only: the individual services. */
  readonly cluster?: ClusterSystem;
  close(): Promise<void>;
}

function appOf(system: EmbeddedSystem | ClusterSystem, name: ServiceName) {
  const app = 'services' in system ? system.services.get(name)?.app : system.running(name)?.service.app;
  if (!app) throw new Error(`${name} is not running`);
  return app;
}

function clientOf(system: EmbeddedSystem | ClusterSystem, preferred: ServiceName[] = ['gateway', 'auth-oauth', 'plans']): ServiceClient {
  for (const name of preferred) {
    const app = 'services' in system ? system.services.get(name)?.app : system.running(name)?.service.app;
    if (app) return app.get(ServiceClient);
  }
  throw new Error('no running service to send requests from');
}

/**
 * The e2e plan catalogue: new accounts get "roomy" (limits no suite reaches), so suites that make
 * dozens of projects or filters test what they test and not the built-in free plan; the limit
 * suites put their accounts on "tiny" or "bare" (setPlan in ./plans).
 */
export const E2E_PLANS_FILE = join(__dirname, 'plans.e2e.json');

/** Starts the whole system; `env` adds settings (e.g. low rate limits) to every service. */
export async function startSystem(mode: Mode, options: { env?: Record<string, string> } = {}): Promise<SystemUnderTest> {
  // Every request of a test comes from 127.0.0.1, and suites make tokens through the OAuth flow
  // by the dozen: the per-address auth limit is off unless a test turns it on (rate-limits e2e).
  const env = { LOG_LEVEL: 'error', RATE_LIMIT_AUTH_REQUESTS: '0', PLANS_FILE: E2E_PLANS_FILE, ...options.env };
  let system: EmbeddedSystem | ClusterSystem;
  let cleanup: () => Promise<void>;
  let databaseUrl: string;
  if (mode === 'embedded') {
    // The run's migrated database archive (tools/scripts/test-fixtures.mjs), when there is one.
    const embedded = await startEmbeddedSystem({ dataDir: 'memory://', port: 0, env, initialData: process.env['DOABLE_TEST_PGLITE_ARCHIVE'] });
    system = embedded;
    databaseUrl = embedded.databaseUrl;
    cleanup = () => embedded.close();
  } else {
    const database = await createTestDatabase('e2e');
    const subjectPrefix = uniqueSubjectPrefix('e2e');
    const cluster = await startClusterSystem({ databaseUrl: database.url, natsUrl: TEST_NATS_URL, subjectPrefix, env });
    system = cluster;
    databaseUrl = database.url;
    cleanup = async () => {
      await cluster.close();
      await deleteEventStream(streamNameFor(subjectPrefix));
      // The files' Object Store bucket, named after the prefix (created only if a test stored a file).
      await deleteEventStream(objectStoreStreamName(defaultStorageBucket(subjectPrefix)));
      await database.drop();
    };
  }
  const url = 'url' in system ? system.url : system.gatewayUrl;
  const sql = async <T>(text: string, params: unknown[] = []): Promise<T[]> => {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
  const profileExists = async (userId: string) => (await clientOf(system).request(SyncSubjects.userStatus, { userId })).exists;
  return {
    mode,
    url,
    databaseUrl,
    cluster: 'gatewayUrl' in system ? system : undefined,
    profileExists,
    commandTypes: () => appOf(system, 'sync').get<symbol, CommandHandler[]>(COMMAND_HANDLERS).map((handler) => handler.type),
    async createAccount(options = {}) {
      const email = `user-${randomBytes(5).toString('hex')}@example.test`;
      const { userId, token } = await clientOf(system).request(AuthSubjects.createAccount, { email, fullName: 'Test User', timezone: 'UTC', password: options.password });
      if (options.waitForProfile !== false) {
        await waitFor(() => profileExists(userId), `the profile of user ${userId}`);
        // Until the default plan (roomy) reaches sync, the user is on the built-in free plan:
        // a suite making its sixth project at once would meet that plan's limit instead.
        await waitFor(async () => (await sql('SELECT 1 FROM sync.user_plans WHERE user_id = $1', [userId])).length > 0, `the plan of user ${userId}`);
      }
      return { userId, email, token };
    },
    sql,
    async storedFiles(prefix = 'files/') {
      const store = appOf(system, 'gateway').get<symbol, BlobStore>(BLOB_STORE);
      const found: string[] = [];
      for await (const info of store.list(prefix)) found.push(info.key);
      if (store instanceof LocalBlobStore) {
        const entries = await readdir(store.root, { recursive: true, withFileTypes: true }).catch(() => []);
        for (const entry of entries) if (entry.isFile() && entry.name.includes('~')) found.push(`partial:${entry.parentPath}/${entry.name}`);
      }
      return found.sort();
    },
    async createScopedToken(userId, scopes) {
      return scopedTokenThroughOAuth(url, {
        userId,
        email: async () => (await sql<{ email: string }>('SELECT email FROM auth.accounts WHERE id = $1', [userId]))[0].email,
        setPassword: async (password) => void (await clientOf(system).request(AuthSubjects.setPassword, { userId, password })),
      }, scopes);
    },
    async resetToken(email) {
      return (await appOf(system, 'auth-oauth').get(AccountService).resetPersonalToken(email)).token;
    },
    close: cleanup,
  };
}
