import 'reflect-metadata';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type AccountService, authMigrations, NatsRevocationBarrier, type OAuthApp, OutboxDeliveryBarrier, type RevocationBarrier } from '@doable/auth-oauth';
import { GATEWAY_LEASE_MS } from '@doable/contracts-common';
import {
  claimDataFolder,
  createServiceDataSource,
  DataFolderBusyError,
  type DataFolderOwnership,
  describeOwner,
  type EmbeddedPostgres,
  isAlive,
  migrateUp,
  OutboxRelay,
  readRuntimeFile,
  startEmbeddedPostgres,
} from '@doable/shared-database';
import { DomainError } from '@doable/shared-errors';
import { createLogger, type Logger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import type { EventBus } from '@doable/shared-transport';
import { PlanAssignments, plansMigrations, planNames, WorkspacePlanAssignments, workspacePlanNames } from '@doable/plans';
import type { WorkspacePlanLimits } from '@doable/contracts-plans';
import type { EntityManager } from 'typeorm';
import { operatorServices, type OperatorServices } from './operator-services';

const USAGE = `usage: npm run cli -- <command> [options]

commands:
  create-account --email <email> --name <full name> [--password <password>] [--timezone <tz>]
  reset-token    --email <email>
  set-password   --email <email> --password <password>   (to log in to the account pages)
  app-suspend     --client-id <id>   an OAuth application gets no new tokens (authorize answers invalid_application_status)
  app-reactivate  --client-id <id>
  app-token-limit --client-id <id> --limit <n|none>   caps the application's live tokens
  set-plan       --email <email> --plan <name>   puts the account on a plan of the catalogue
  set-workspace-plan --workspace <id> --plan <name>   puts a workspace on a workspace plan of the catalogue
  list-plans                                     the catalogue the running system published (user plans,
                                                 then a blank line and the workspace plans)
  backup         --email <email>   makes a backup of the account now (even on a plan without automatic
                                   backups) and prints its version once the running system has made it
  import-todoist --file <zip|json> --token <API token> [--url <base URL>]
                 brings a Todoist account (a backup ZIP, or the JSON of a full sync) into the token's
                 account through the running system's POST /api/v1/import/todoist

Passwords follow the sign-up page's policy (8+ characters, not a common one, not containing
the email); a refusal exits 1 with the error's code.

The database is DATABASE_URL when set (cluster), otherwise the embedded one under
DOABLE_DATA_DIR (default ./data), whether or not \`npm start\` is running.
Events (the new user's profile and Inbox) are delivered by the running system.`;

/** The CLI only writes outboxes; the running system's relay publishes the events. */
const IDLE_BUS: EventBus = {
  publish: () => Promise.resolve(),
  publishAll: () => Promise.reject(new Error('unused')),
  consume: () => Promise.reject(new Error('unused')),
  broadcast: () => Promise.reject(new Error('unused')),
  isConnected: () => true,
  close: () => Promise.resolve(),
};

/** Where the auth-oauth schema lives: the cluster's database, a running embedded system's, or the embedded data folder. */
async function locateDatabase(): Promise<{ url: string; embedded?: { database: EmbeddedPostgres; ownership: DataFolderOwnership } }> {
  if (process.env['DATABASE_URL']) return { url: process.env['DATABASE_URL'] };
  const dataDir = resolve(process.env['DOABLE_DATA_DIR'] ?? 'data');
  // The folder has one owner (data-folder-lock.ts): a running system's database is reached over
  // its wire endpoint; otherwise the CLI takes the folder for the command's length, so no start
  // opens it meanwhile. A start still opening it, or another CLI command, is waited for.
  const claim = await claimDataFolder(dataDir, {
    holder: 'the operator CLI',
    patienceMs: 120_000,
    onWaiting: (owner) => process.stderr.write(`waiting for ${describeOwner(owner)}, which holds the data folder ${dataDir}\n`),
  });
  if (claim.kind === 'served') return { url: claim.owner.runtime.databaseUrl };
  const database = await startEmbeddedPostgres({
    dataDir: resolve(dataDir, 'pg'),
    port: 0,
    maxConnections: 4,
    onLost: (error) => {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    },
  });
  return { url: database.url, embedded: { database, ownership: claim.ownership } };
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
      workspace: { type: 'string' },
      file: { type: 'string' },
      token: { type: 'string' },
      url: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const command = positionals[0];
  // A client of the running system's endpoint, like any other: no database needed.
  if (command === 'import-todoist' && !values.help) {
    if (values.file === undefined || values.token === undefined) {
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
    return importTodoist(values.file, values.token, values.url);
  }
  const isAppCommand = command === 'app-suspend' || command === 'app-reactivate' || command === 'app-token-limit';
  const isPlanCommand = command === 'set-plan' || command === 'list-plans' || command === 'set-workspace-plan';
  const usable = isPlanCommand
    ? command === 'list-plans' || (values.plan !== undefined && (command === 'set-plan' ? values.email !== undefined : values.workspace !== undefined))
    : isAppCommand
    ? values['client-id'] !== undefined && (command !== 'app-token-limit' || values.limit !== undefined)
    : command === 'backup'
    ? values.email !== undefined
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
  let services: OperatorServices | undefined;
  try {
    await migrateUp(dataSource);
    const database = new Database(dataSource, 'auth', new OutboxRelay(dataSource, 'auth', IDLE_BUS, logger));
    services = await operatorServices(database, barrier, process.env['APP_SECRET_KEY'] ?? '');
    const { accounts, apps } = services;
    const email = values.email ?? '';
    if (isPlanCommand) {
      await planCommand(command, url, logger, accounts, { email, plan: values.plan, workspace: values.workspace });
    } else if (isAppCommand) {
      const clientId = values['client-id']!;
      let app: OAuthApp;
      if (command === 'app-token-limit') app = await apps.setTokenLimit(clientId, parseLimit(values.limit!));
      else app = await apps.setStatus(clientId, command === 'app-suspend' ? 'suspended' : 'active');
      process.stdout.write(`application ${app.clientId} (${app.name}): status ${app.status}, token limit ${app.tokenLimit ?? 'none'}\n`);
    } else if (command === 'backup') {
      const userId = await accounts.idOf(email);
      if (!userId) throw new DomainError('USER_NOT_FOUND', `No account with the email ${email}`);
      const version = await requestBackup(url, userId);
      process.stdout.write(`backup ${version} made for account ${userId} <${values.email}>\n`);
    } else if (command === 'create-account') {
      const { userId, token } = await accounts.create({ email: email.trim().toLowerCase(), fullName: values.name!, password: values.password, timezone: values.timezone ?? 'UTC', emailVerified: true });
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
    await services?.close();
    if (barrier instanceof NatsRevocationBarrier) await barrier.close();
    await dataSource.destroy();
    if (embedded) await embedded.ownership.close(() => embedded.database.close());
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
    leaseMs: Number(process.env['REVOCATION_LEASE_MS'] ?? GATEWAY_LEASE_MS),
    logger,
    connectTimeoutMs: 3_000,
  });
}

/**
 * set-plan, set-workspace-plan and list-plans work on the plans schema (the catalogues the
 * running system published at its start, and the assignments). The change is written with its
 * event in the plans service's outbox: the running system's relay delivers it, and sync enforces
 * and serves the new limits from the next request on.
 */
async function planCommand(
  command: string,
  url: string,
  logger: Logger,
  accounts: AccountService,
  args: { email: string; plan: string | undefined; workspace: string | undefined },
): Promise<void> {
  const dataSource = createServiceDataSource({ schema: 'plans', url, poolSize: 2, applicationName: 'doable-cli', migrations: plansMigrations });
  await dataSource.initialize();
  try {
    await migrateUp(dataSource);
    if (command === 'list-plans') {
      process.stdout.write(await listPlans(dataSource.manager));
      return;
    }
    const database = new Database(dataSource, 'plans', new OutboxRelay(dataSource, 'plans', IDLE_BUS, logger));
    if (command === 'set-workspace-plan') {
      const workspaceId = args.workspace!;
      if (!/^[0-9]{1,19}$/.test(workspaceId)) throw new DomainError('INVALID_ARGUMENT_VALUE', `--workspace is a workspace id (digits), not ${workspaceId}`, { argument: 'workspace' });
      const workspace = await findWorkspace(dataSource.manager, workspaceId);
      const plan = await database.transaction((tx) => new WorkspacePlanAssignments().assign(tx, workspaceId, args.plan!));
      const named = workspace === 'unchecked' ? '' : ` (${workspace.name})`;
      process.stdout.write(`workspace ${workspaceId}${named} is on workspace plan ${describeWorkspacePlan(plan)}\n`);
      if (workspace === 'unchecked') process.stderr.write(`warning: ${UNCHECKED_WORKSPACE}\n`);
      return;
    }
    const userId = await accounts.idOf(args.email);
    if (!userId) throw new DomainError('USER_NOT_FOUND', `No account with the email ${args.email}`);
    const limits = await database.transaction((tx) => new PlanAssignments().assign(tx, userId, args.plan!));
    const next = limits.next ? `, next: ${limits.next.plan_name}` : '';
    process.stdout.write(`account ${userId} <${args.email}> is on plan ${limits.current.plan_name} (max_projects ${limits.current.max_projects}, max_tasks ${limits.current.max_tasks}${next})\n`);
  } finally {
    await dataSource.destroy();
  }
}

/** The user plans one a line (what scripts read), then a blank line and the workspace plans with their type. */
async function listPlans(manager: EntityManager): Promise<string> {
  const names = await planNames(manager);
  if (names.length === 0) return 'no catalogue yet: start the system once (npm start) to publish it\n';
  const workspacePlans = await workspacePlanNames(manager);
  const workspaceLines = workspacePlans.map((plan) => `${plan.plan_name} ${plan.plan_type}${plan.is_default ? ' (default)' : ''}`);
  const workspaces = workspaceLines.length > 0 ? workspaceLines.join('\n') : 'none yet: restart the plans service to publish them';
  return `${names.join('\n')}\n\nworkspace plans:\n${workspaces}\n`;
}

function describeWorkspacePlan(plan: WorkspacePlanLimits): string {
  const { current, next } = plan.limits;
  const counts = (['max_projects', 'max_folders_per_workspace', 'max_guests_per_workspace', 'max_workspace_filters'] as const).map((key) => `${key} ${current[key]}`).join(', ');
  return `${current.plan_name} (${plan.plan_type}: ${counts}${next ? `, next: ${next.plan_name}` : ''})`;
}

const UNCHECKED_WORKSPACE =
  'this database has no sync schema to check the workspace id against; the assignment is kept, and sync ignores it unless a workspace with that id exists (an unknown id changes nothing).';

/**
 * The plans service does not know which workspaces exist (sync owns them), so the CLI looks at
 * sync's table, read only, before assigning: an unknown or deleted workspace is refused with
 * WORKSPACE_NOT_FOUND and nothing is written. A database without sync's schema (sync never
 * started on it) cannot be checked: the assignment is written, with a warning.
 */
async function findWorkspace(manager: EntityManager, workspaceId: string): Promise<{ name: string } | 'unchecked'> {
  const [{ exists }] = await manager.query<Array<{ exists: boolean }>>(`SELECT to_regclass('sync.workspaces') IS NOT NULL AS exists`);
  if (!exists) return 'unchecked';
  const [row] = await manager.query<Array<{ name: string }>>('SELECT name FROM sync.workspaces WHERE id = $1 AND NOT is_deleted', [workspaceId]);
  if (!row) throw new DomainError('WORKSPACE_NOT_FOUND', `No workspace with the id ${workspaceId}`);
  return row;
}

/** How long `backup` waits for the running system's scheduler (it looks every BACKUP_POLL_SECONDS). */
const BACKUP_WAIT_MS = 180_000;

/**
 * Marks the account's backup as due now in sync's schedule (the scheduler takes it at its next
 * look, whichever sync replica that is) and waits for the new backup's row. Nothing is made
 * here: the running system makes backups, with its blob store.
 */
async function requestBackup(url: string, userId: string): Promise<string> {
  const dataSource = createServiceDataSource({ schema: 'sync', url, poolSize: 1, applicationName: 'doable-cli', migrations: [] });
  await dataSource.initialize();
  try {
    const [{ exists }] = await dataSource.query<Array<{ exists: boolean }>>(`SELECT to_regclass('sync.backup_schedule') IS NOT NULL AS exists`);
    if (!exists) throw new DomainError('NOT_FOUND', 'This database has no sync schema yet: start the system once (npm start)');
    const [{ since }] = await dataSource.query<Array<{ since: Date }>>(`SELECT now() AS since`);
    await dataSource.query(
      `INSERT INTO sync.backup_schedule (user_id, next_at, requested) VALUES ($1, now(), true) ON CONFLICT (user_id) DO UPDATE SET next_at = now(), requested = true`,
      [userId],
    );
    const deadline = Date.now() + BACKUP_WAIT_MS;
    while (Date.now() < deadline) {
      const [made] = await dataSource.query<Array<{ version: string }>>(`SELECT version FROM sync.backups WHERE user_id = $1 AND created_at >= $2 ORDER BY created_at DESC LIMIT 1`, [userId, since]);
      if (made) return made.version;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new DomainError('SERVICE_UNAVAILABLE', 'No backup was made within 3 minutes: is the system running (npm start)?');
  } finally {
    await dataSource.destroy();
  }
}

/** `--url`, else the running embedded system's address (its runtime file), else the default port. */
async function baseUrlOf(url: string | undefined): Promise<string> {
  if (url) return url.replace(/\/+$/, '');
  const runtime = await readRuntimeFile(resolve(process.env['DOABLE_DATA_DIR'] ?? 'data'));
  return runtime && isAlive(runtime.pid) ? runtime.url : 'http://127.0.0.1:8080';
}

async function importTodoist(file: string, token: string, url: string | undefined): Promise<number> {
  const bytes = await readFile(resolve(file));
  const form = new FormData();
  form.append('file', new Blob([bytes]), basename(file));
  const response = await fetch(`${await baseUrlOf(url)}/api/v1/import/todoist`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  const text = await response.text();
  if (!response.ok) {
    process.stderr.write(`error: HTTP ${response.status}: ${text}\n`);
    return 1;
  }
  const summary = JSON.parse(text) as { created: Record<string, number>; refused: Array<{ type: string; code: string; count: number }> };
  const made = Object.entries(summary.created).map(([type, count]) => `${type} ${count}`).join(', ');
  process.stdout.write(`imported: ${made || 'nothing'}\n`);
  for (const refusal of summary.refused) process.stdout.write(`refused: ${refusal.type} x${refusal.count} (${refusal.code})\n`);
  return 0;
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
    if (err instanceof DataFolderBusyError) {
      process.stderr.write(`error: ${err.message}; try again once it has ended\n`);
      process.exit(1);
    }
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
