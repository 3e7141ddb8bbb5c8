import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountService } from '@doable/auth-oauth';
import { AuthSubjects } from '@doable/contracts-auth';
import { SyncSubjects } from '@doable/contracts-sync';
import { PlanAssignments, WorkspacePlanAssignments } from '@doable/plans';
import { Database, type ServiceName } from '@doable/shared-runtime';
import { createTestDatabase, deleteEventStream, TEST_NATS_URL, uniqueSubjectPrefix, waitFor } from '@doable/shared-testing';
import { BLOB_STORE, type BlobStore, defaultStorageBucket, LocalBlobStore, objectStoreStreamName } from '@doable/shared-storage';
import { ServiceClient, streamNameFor } from '@doable/shared-transport';
import { COMMAND_HANDLERS, type CommandHandler } from '@doable/sync';
import { type ClusterSystem, type EmbeddedSystem, startClusterSystem, startEmbeddedSystem } from '@doable/system';
import { scopedTokenThroughOAuth } from './oauth-flow';

export { type Account, E2E_PLANS_FILE, type Mode, MODES, type SystemUnderTest } from './system-view';
import { E2E_PLANS_FILE, type Mode, sqlOn, type SystemUnderTest } from './system-view';

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


/** Starts the whole system; `env` adds settings (e.g. low rate limits) to every service. */
export async function startSystem(mode: Mode, options: { env?: Record<string, string>; label?: string } = {}): Promise<SystemUnderTest> {
  // Every request of a test comes from 127.0.0.1, and suites make tokens through the OAuth flow
  // by the dozen: the per-address auth limit is off unless a test turns it on (rate-limits e2e).
  const env: Record<string, string> = { LOG_LEVEL: 'error', RATE_LIMIT_AUTH_REQUESTS: '0', PLANS_FILE: E2E_PLANS_FILE, ...options.env };
  let system: EmbeddedSystem | ClusterSystem;
  let cleanup: () => Promise<void>;
  let databaseUrl: string;
  let natsTransport: SystemUnderTest['natsTransport'];
  if (mode === 'embedded') {
    // The run's migrated database archive (tools/scripts/test-fixtures.mjs), when there is one.
    // A run's system keeps its files in a folder named after the run, which the run removes:
    // a worker is ended without closing its shared systems, which would delete a folder of their own.
    const files = options.label && !env['STORAGE_DIR'] ? { STORAGE_DIR: join(tmpdir(), `doable-files-${options.label}-${randomBytes(4).toString('hex')}`) } : {};
    const embedded = await startEmbeddedSystem({ dataDir: 'memory://', port: 0, env: { ...env, ...files }, initialData: process.env['DOABLE_TEST_PGLITE_ARCHIVE'] });
    system = embedded;
    databaseUrl = embedded.databaseUrl;
    cleanup = () => embedded.close();
  } else {
    // A label names what the system leaves in PostgreSQL and NATS, so a run can find and remove it.
    const database = await createTestDatabase(options.label ?? 'e2e');
    const subjectPrefix = uniqueSubjectPrefix(options.label ?? 'e2e');
    const cluster = await startClusterSystem({ databaseUrl: database.url, natsUrl: TEST_NATS_URL, subjectPrefix, env });
    system = cluster;
    databaseUrl = database.url;
    natsTransport = { url: TEST_NATS_URL, subjectPrefix };
    cleanup = async () => {
      await cluster.close();
      await deleteEventStream(streamNameFor(subjectPrefix));
      // The files' Object Store bucket, named after the prefix (created only if a test stored a file).
      await deleteEventStream(objectStoreStreamName(defaultStorageBucket(subjectPrefix)));
      await database.drop();
    };
  }
  const url = 'url' in system ? system.url : system.gatewayUrl;
  const sql = sqlOn(databaseUrl);
  const profileExists = async (userId: string) => (await clientOf(system).request(SyncSubjects.userStatus, { userId })).exists;
  return {
    mode,
    url,
    databaseUrl,
    cluster: 'gatewayUrl' in system ? system : undefined,
    natsTransport,
    profileExists,
    commandTypes: () => appOf(system, 'sync').get<symbol, CommandHandler[]>(COMMAND_HANDLERS).map((handler) => handler.type),
    async createAccount(options = {}) {
      const email = `user-${randomBytes(5).toString('hex')}@example.test`;
      const { userId, token } = await clientOf(system).request(AuthSubjects.createAccount, { email, fullName: 'Test User', timezone: 'UTC', password: options.password });
      if (options.waitForProfile !== false) {
        await waitFor(() => profileExists(userId), `the profile of user ${userId}`);
        // Until the default plan (roomy) reaches sync, the user is on the built-in free plan:
        // a suite making its sixth project at once would meet that plan's limit instead. The plan
        // comes through two services' outboxes and consumers: on a machine with every core taken
        // that took over 20 s, so it has the bound of a system's start rather than waitFor's default.
        await waitFor(async () => (await sql('SELECT 1 FROM sync.user_plans WHERE user_id = $1', [userId])).length > 0, `the plan of user ${userId}`, 60_000);
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
    async assignPlan(target, plan) {
      // The plans service's own transaction: its relay is nudged at the commit, as after any write of its own.
      const database = appOf(system, 'plans').get(Database);
      await database.transaction(async (tx) => {
        if ('userId' in target) await new PlanAssignments().assign(tx, target.userId, plan);
        else await new WorkspacePlanAssignments().assign(tx, target.workspaceId, plan);
      });
    },
    async resetToken(email) {
      return (await appOf(system, 'auth-oauth').get(AccountService).resetPersonalToken(email)).token;
    },
    close: cleanup,
  };
}
