import 'reflect-metadata';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AccountService, authMigrations, NatsRevocationBarrier, type OAuthApp, OAuthAppService, OutboxDeliveryBarrier, type RevocationBarrier } from '@doable/auth-oauth';
import { GatewayRevocation } from '@doable/contracts-auth';
import { createServiceDataSource, migrateUp, OutboxRelay, startEmbeddedPostgres, type EmbeddedPostgres } from '@doable/shared-database';
import { DomainError } from '@doable/shared-errors';
import { createLogger, type Logger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import type { EventBus } from '@doable/shared-transport';
import { isAlive, readRuntimeFile } from '@doable/system';
import { PlanAssignments, plansMigrations, planNames } from '@doable/plans';

const USAGE = `usage: npm run cli -- <command> [options]

commands:
  create-account --email <email> --name <full name> [--password <password>] [--timezone <tz>]
  reset-token    --email <email>
  set-password   --email <email> --password <password>   (to log in to the account pages)
  app-suspend     --client-id <id>   an OAuth application gets no new tokens (authorize answers invalid_application_status)
  app-reactivate  --client-id <id>
  app-token-limit --client-id <id> --limit <n|none>   caps the application's live tokens
  set-plan       --email <email> --plan <name>   puts the account on a plan of the catalogue
  list-plans                                     the catalogue the running system published

Passwords follow the sign-up page's policy (8+ characters, not a common one, not containing
the email); a refusal exits 1 with the error's code.

The database is DATABASE_URL when set (cluster), otherwise the embedded one under
DOABLE_DATA_DIR (default ./data), whether or not \`npm start\` is running.
Events (the new user's profile and Inbox) are delivered by the running system.`;

/** The CLI only writes outboxes; the running system's relay publishes the events. */
const IDLE_BUS: EventBus = {
  publish: () => Promise.resolve(),
  consume: () => Promise.reject(new Error('unused')),
  broadcast: () => Promise.reject(new Error('unused')),
  isConnected: () => true,
  close: () => Promise.resolve(),
};

/** Where the auth-oauth schema lives: the cluster's database, a running embedded system's, or the embedded data folder. */
async function locateDatabase(): Promise<{ url: string; embedded?: EmbeddedPostgres }> {
  if (process.env['DATABASE_URL']) return { url: process.env['DATABASE_URL'] };
  const dataDir = resolve(process.env['DOABLE_DATA_DIR'] ?? 'data');
  const runtime = await readRuntimeFile(dataDir);
  if (runtime && isAlive(runtime.pid)) return { url: runtime.databaseUrl };
  const embedded = await startEmbeddedPostgres({ dataDir: resolve(dataDir, 'pg'), port: 0, maxConnections: 4 });
  return { url: embedded.url, embedded };
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      timezone: { type: 'string' },
      'client-id': { type: 'string' },
      limit: { type: 'string' },
      plan: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const command = positionals[0];
  const isAppCommand = command === 'app-suspend' || command === 'app-reactivate' || command === 'app-token-limit';
  const isPlanCommand = command === 'set-plan' || command === 'list-plans';
  const usable = isPlanCommand
    ? command === 'list-plans' || (values.email !== undefined && values.plan !== undefined)
    : isAppCommand
    ? values['client-id'] !== undefined && (command !== 'app-token-limit' || values.limit !== undefined)
    : ['create-account', 'reset-token', 'set-password'].includes(command ?? '') && values.email !== undefined && (command !== 'create-account' || values.name !== undefined) && (command !== 'set-password' || values.password !== undefined);
  if (values.help || !command || !usable) {
    process.stderr.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const logger = createLogger('cli', process.env['LOG_LEVEL'] ?? 'warn');
  const { url, embedded } = await locateDatabase();
  const dataSource = createServiceDataSource({ schema: 'auth', url, poolSize: 2, applicationName: 'doable-cli', migrations: authMigrations });
  await dataSource.initialize();
  // The embedded folder with no `npm start` running: no gateway exists, so none holds a cache.
  // A running `npm start`: its relay delivers the revocation to its one gateway (see
  // OutboxDeliveryBarrier). A cluster (DATABASE_URL): every gateway confirms over NATS.
  const barrier = embedded ? NO_GATEWAY : process.env['DATABASE_URL'] ? revocationBarrier(logger) : new OutboxDeliveryBarrier(dataSource);
  try {
    await migrateUp(dataSource);
    const database = new Database(dataSource, 'auth', new OutboxRelay(dataSource, 'auth', IDLE_BUS, logger));
    const accounts = new AccountService(database, barrier);
    const email = values.email ?? '';
    if (isPlanCommand) {
      await planCommand(command, url, logger, accounts, email, values.plan);
    } else if (isAppCommand) {
      const apps = new OAuthAppService(database);
      const clientId = values['client-id']!;
      let app: OAuthApp;
      if (command === 'app-token-limit') app = await apps.setTokenLimit(clientId, parseLimit(values.limit!));
      else app = await apps.setStatus(clientId, command === 'app-suspend' ? 'suspended' : 'active');
      process.stdout.write(`application ${app.clientId} (${app.name}): status ${app.status}, token limit ${app.tokenLimit ?? 'none'}\n`);
    } else if (command === 'create-account') {
      const { userId, token } = await accounts.create({ email: email.trim().toLowerCase(), fullName: values.name!, password: values.password, timezone: values.timezone ?? 'UTC' });
      process.stdout.write(`created account ${userId} <${values.email}>\nAPI token: ${token}\n`);
    } else if (command === 'set-password') {
      const userId = await accounts.idOf(email);
      if (!userId) throw new DomainError('USER_NOT_FOUND', `No account with the email ${email}`);
      await accounts.setPassword(userId, values.password!);
      process.stdout.write(`password set for account ${userId} <${values.email}>: log in at /auth/login\n`);
    } else {
      const { userId, token, confirmed } = await accounts.resetPersonalToken(email);
      process.stdout.write(`new token for account ${userId} <${values.email}> (the old one no longer works)\nAPI token: ${token}\n`);
      if (!confirmed) process.stderr.write(`warning: ${UNCONFIRMED_REVOCATION}\n`);
    }
    return 0;
  } catch (err) {
    if (err instanceof DomainError) {
      process.stderr.write(`error: ${err.code}: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    if (barrier instanceof NatsRevocationBarrier) await barrier.close();
    await dataSource.destroy();
    await embedded?.close();
  }
}

const UNCONFIRMED_REVOCATION =
  'the gateways could not confirm that they dropped the old token (a cluster: NATS_URL unset or unreachable; npm start: its relay did not deliver the revocation within 10 s): a gateway that cached the old token accepts it until its cache entry expires (AUTH_CACHE_TTL_MS) or the revocation reaches it.';

/**
 * In a cluster, a token reset returns once every gateway has dropped the old token, as the
 * settings page's does; that needs NATS_URL. Without it, or with no route to NATS, the gateways
 * cannot be reached from here: the reset is reported as unconfirmed.
 */
const NO_GATEWAY: RevocationBarrier = { revoked: () => Promise.resolve() };

function revocationBarrier(logger: Logger): RevocationBarrier {
  const url = process.env['NATS_URL'];
  if (!url) return { revoked: (hashes) => (hashes.length === 0 ? Promise.resolve() : Promise.reject(new Error('no NATS_URL'))) };
  return new NatsRevocationBarrier({
    url,
    subjectPrefix: process.env['NATS_SUBJECT_PREFIX'] ?? 'doable.',
    name: 'cli',
    leaseMs: Number(process.env['REVOCATION_LEASE_MS'] ?? GatewayRevocation.GATEWAY_LEASE_MS),
    logger,
    connectTimeoutMs: 3_000,
  });
}

/**
 * set-plan and list-plans work on the plans schema (the catalogue the running system published
 * at its start, and the assignments). The change is written with its event in the plans
 * service's outbox: the running system's relay delivers it, and sync enforces and serves the
 * new limits from the user's next request on.
 */
async function planCommand(command: string, url: string, logger: Logger, accounts: AccountService, email: string, plan: string | undefined): Promise<void> {
  const dataSource = createServiceDataSource({ schema: 'plans', url, poolSize: 2, applicationName: 'doable-cli', migrations: plansMigrations });
  await dataSource.initialize();
  try {
    await migrateUp(dataSource);
    if (command === 'list-plans') {
      const names = await planNames(dataSource.manager);
      process.stdout.write(names.length > 0 ? `${names.join('\n')}\n` : 'no catalogue yet: start the system once (npm start) to publish it\n');
      return;
    }
    const userId = await accounts.idOf(email);
    if (!userId) throw new DomainError('USER_NOT_FOUND', `No account with the email ${email}`);
    const database = new Database(dataSource, 'plans', new OutboxRelay(dataSource, 'plans', IDLE_BUS, logger));
    const limits = await database.transaction((tx) => new PlanAssignments().assign(tx, userId, plan!));
    const next = limits.next ? `, next: ${limits.next.plan_name}` : '';
    process.stdout.write(`account ${userId} <${email}> is on plan ${limits.current.plan_name} (max_projects ${limits.current.max_projects}, max_tasks ${limits.current.max_tasks}${next})\n`);
  } finally {
    await dataSource.destroy();
  }
}

/** `none` lifts the cap; otherwise a whole number, 0 or more (checked again by the service). */
function parseLimit(raw: string): number | null {
  if (raw === 'none') return null;
  if (!/^[0-9]{1,9}$/.test(raw)) throw new DomainError('INVALID_ARGUMENT_VALUE', `--limit is a whole number or "none", not ${raw}`, { argument: 'limit' });
  return Number(raw);
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
