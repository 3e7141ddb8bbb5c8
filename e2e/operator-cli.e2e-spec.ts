import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, http, type TestDatabase, waitFor } from '@doable/shared-testing';
import { type Run, run, runToCompletion } from './support/processes';
import { planLimitsOf, setWorkspacePlan, workspaceOf } from './support/plans';
import { syncSession } from './support/sync-session';
import { E2E_PLANS_FILE, MODES } from './support/system-view';
import { useSystem } from './support/use-system';

interface E2eCatalogue {
  plans: Array<{ plan_name: string }>;
  workspace_plans: { default: string; plans: Array<{ plan_name: string; plan_type?: string; extends?: string }> };
}
const E2E_CATALOGUE = JSON.parse(readFileSync(E2E_PLANS_FILE, 'utf8')) as E2eCatalogue;
/** The plans of the e2e catalogue the system runs on, in the file's (upgrade) order. */
const E2E_PLANS = E2E_CATALOGUE.plans.map((plan) => plan.plan_name);
/** Its workspace plans as list-plans shows them: name, type (set, or the extended built-in's), the default marked. */
const E2E_WORKSPACE_PLANS = E2E_CATALOGUE.workspace_plans.plans.map(
  (plan) => `${plan.plan_name} ${plan.plan_type ?? (plan.extends === 'business' ? 'BUSINESS' : 'STARTER')}${plan.plan_name === E2E_CATALOGUE.workspace_plans.default ? ' (default)' : ''}`,
);

/**
 * The operator CLI as a process on a cluster database (DATABASE_URL): account creation under
 * the sign-up page's password policy, and the application commands (suspend, reactivate, token
 * limit) by client id.
 */
describe('operator CLI', () => {
  let database: TestDatabase;
  let pg: Client;
  const cli = (...args: string[]): Run => runToCompletion('cli', args, { DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
  const appRow = async (clientId: string) =>
    (await pg.query<{ status: string; token_limit: number | null }>('SELECT status, token_limit FROM auth.oauth_apps WHERE client_id = $1', [clientId])).rows[0];

  beforeAll(async () => {
    database = await createTestDatabase('cli', { empty: true });
    pg = new Client({ connectionString: database.url });
    await pg.connect();
  });

  afterAll(async () => {
    await pg?.end();
    await database?.drop();
  });

  it.each([
    ['short', 'PASSWORD_TOO_SHORT'],
    ['iloveyou', 'COMMON_PASSWORD'],
    ['ada-lovelace is me', 'PASSWORD_CONTAINS_EMAIL'],
  ])('create-account refuses the password %j with %s (exit 1) and creates nothing', async (password, code) => {
    const run = cli('create-account', '--email', 'ada-lovelace@example.test', '--name', 'Ada', '--password', password);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`error: ${code}:`);
    expect(run.stdout).not.toContain('API token');
    expect((await pg.query("SELECT id FROM auth.accounts WHERE email = 'ada-lovelace@example.test'")).rows).toEqual([]);
  });

  it('create-account accepts a good password and prints the token once', () => {
    const run = cli('create-account', '--email', 'grace@example.test', '--name', 'Grace', '--password', 'a sturdy operator passphrase');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/API token: [0-9a-f]{40}\n/);
  });

  it('suspends, reactivates and caps an application by client id', async () => {
    const owner = await pg.query<{ id: string }>("SELECT id::text AS id FROM auth.accounts WHERE email = 'grace@example.test'");
    const clientId = randomBytes(16).toString('hex');
    await pg.query(`INSERT INTO auth.oauth_apps (owner_id, name, client_id, client_secret_hash) VALUES ($1, 'Ops app', $2, 'x')`, [owner.rows[0].id, clientId]);

    const suspended = cli('app-suspend', '--client-id', clientId);
    expect(suspended).toMatchObject({ status: 0 });
    expect(suspended.stdout).toContain(`application ${clientId} (Ops app): status suspended`);
    expect(await appRow(clientId)).toEqual({ status: 'suspended', token_limit: null });

    expect(cli('app-reactivate', '--client-id', clientId).status).toBe(0);
    expect(await appRow(clientId)).toMatchObject({ status: 'active' });

    expect(cli('app-token-limit', '--client-id', clientId, '--limit', '5').stdout).toContain('token limit 5');
    expect(await appRow(clientId)).toEqual({ status: 'active', token_limit: 5 });
    expect(cli('app-token-limit', '--client-id', clientId, '--limit', 'none').status).toBe(0);
    expect(await appRow(clientId)).toEqual({ status: 'active', token_limit: null });
  });

  it('list-plans on a database no system has started on says so', () => {
    const listed = cli('list-plans');
    expect(listed.status).toBe(0);
    expect(listed.stdout).toContain('no catalogue yet');
  });

  it('refuses an unknown client id, a bad limit and missing arguments', async () => {
    const unknown = cli('app-suspend', '--client-id', 'no-such-client');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('error: OAUTH_APP_NOT_FOUND:');
    const badLimit = cli('app-token-limit', '--client-id', 'no-such-client', '--limit=many');
    expect(badLimit.status).toBe(1);
    expect(badLimit.stderr).toContain('error: INVALID_ARGUMENT_VALUE:');
    const usage = cli('app-token-limit', '--client-id', 'no-such-client');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('app-token-limit --client-id <id> --limit <n|none>');
    expect((await pg.query("SELECT count(*)::int AS n FROM auth.oauth_apps WHERE status = 'suspended'")).rows[0]).toEqual({ n: 0 });
  });
});

/**
 * set-plan and list-plans on a running cluster's database: the catalogue is what the plans
 * service published at its start (here the e2e catalogue), and an assignment reaches sync
 * through the plans service's outbox.
 */
describe('operator CLI: plans', () => {
  const { system, account } = useSystem('cluster');
  const cli = (...args: string[]): Promise<Run> => run('cli', args, { DATABASE_URL: system.databaseUrl, LOG_LEVEL: 'silent' });

  it('list-plans prints the published catalogue in upgrade order', async () => {
    const listed = await cli('list-plans');
    expect(listed.status).toBe(0);
    // The user plans first, one a line; after a blank line, the workspace plans.
    const [userPlans, workspacePlans] = listed.stdout.trim().split('\n\n');
    expect(userPlans.split('\n')).toEqual(E2E_PLANS);
    expect(E2E_PLANS.slice(0, 3)).toEqual(['free', 'pro', 'business']);
    expect(workspacePlans.split('\n')).toEqual(['workspace plans:', ...E2E_WORKSPACE_PLANS]);
  });

  it('set-workspace-plan puts a workspace on a workspace plan and sync serves it to its members', async () => {
    const session = syncSession(() => system, () => account, 'cli-workspace-plan');
    const { statuses, mapping } = await session.run({ type: 'workspace_add', temp_id: 'ws-1', args: { name: 'Ops team' } });
    expect(statuses).toEqual(['ok']);
    const workspaceId = mapping['ws-1'];
    expect((await workspaceOf(system, account, workspaceId)).limits.current.plan_name).toBe(E2E_CATALOGUE.workspace_plans.default);

    const assigned = await cli('set-workspace-plan', '--workspace', workspaceId, '--plan', 'team-tiny');
    expect(assigned.status).toBe(0);
    expect(assigned.stdout).toContain(
      `workspace ${workspaceId} (Ops team) is on workspace plan team-tiny (STARTER: max_projects 2, max_folders_per_workspace 1, max_guests_per_workspace 1, max_workspace_filters 1, next: team-business)`,
    );
    await waitFor(async () => (await workspaceOf(system, account, workspaceId)).limits.current.plan_name === 'team-tiny', 'the team-tiny plan in sync');
    // The e2e helper does the same and waits; an upgrade shows as the workspace's plan type.
    await setWorkspacePlan(system, account, workspaceId, 'team-business');
    expect(await workspaceOf(system, account, workspaceId)).toMatchObject({ plan: 'BUSINESS', limits: { current: { plan_name: 'team-business' } } });
  });

  it('set-workspace-plan refuses an unknown workspace with WORKSPACE_NOT_FOUND, an unknown plan with INVALID_ARGUMENT_VALUE (exit 1)', async () => {
    const unknownWorkspace = await cli('set-workspace-plan', '--workspace', '8899999999', '--plan', 'team-tiny');
    expect(unknownWorkspace.status).toBe(1);
    expect(unknownWorkspace.stderr).toContain('error: WORKSPACE_NOT_FOUND: No workspace with the id 8899999999');
    const badId = await cli('set-workspace-plan', '--workspace', 'acme', '--plan', 'team-tiny');
    expect(badId.status).toBe(1);
    expect(badId.stderr).toContain('error: INVALID_ARGUMENT_VALUE:');
    const session = syncSession(() => system, () => account, 'cli-workspace-plan-refusals');
    const { mapping } = await session.run({ type: 'workspace_add', temp_id: 'ws-2', args: { name: 'Refusals' } });
    const unknownPlan = await cli('set-workspace-plan', '--workspace', mapping['ws-2'], '--plan', 'gold');
    expect(unknownPlan.status).toBe(1);
    expect(unknownPlan.stderr).toContain(`error: INVALID_ARGUMENT_VALUE: No workspace plan named "gold" (the catalogue has: ${E2E_CATALOGUE.workspace_plans.plans.map((plan) => plan.plan_name).join(', ')})`);
    const usage = await cli('set-workspace-plan', '--plan', 'team-tiny');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('set-workspace-plan --workspace <id> --plan <name>');
  });

  it('set-plan puts an account on a plan and sync serves it', async () => {
    const assigned = await cli('set-plan', '--email', account.email, '--plan', 'tiny');
    expect(assigned.status).toBe(0);
    expect(assigned.stdout).toContain(`account ${account.userId} <${account.email}> is on plan tiny (max_projects 2, max_tasks 5, next: pro)`);
    await waitFor(async () => (await planLimitsOf(system, account)).current.plan_name === 'tiny', 'the tiny plan in sync');
  });

  it('refuses an unknown email with USER_NOT_FOUND and an unknown plan with INVALID_ARGUMENT_VALUE naming the plans (exit 1)', async () => {
    const unknownEmail = await cli('set-plan', '--email', 'nobody@example.test', '--plan', 'pro');
    expect(unknownEmail.status).toBe(1);
    expect(unknownEmail.stderr).toContain('error: USER_NOT_FOUND:');
    const unknownPlan = await cli('set-plan', '--email', account.email, '--plan', 'gold');
    expect(unknownPlan.status).toBe(1);
    expect(unknownPlan.stderr).toContain(`error: INVALID_ARGUMENT_VALUE: No plan named "gold" (the catalogue has: ${E2E_PLANS.join(', ')})`);
    const usage = await cli('set-plan', '--email', account.email);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('set-plan       --email <email> --plan <name>');
  });
});

/**
 * backup and import-todoist on a running cluster: backup marks the account due in sync's
 * schedule and waits for the running system to make it; import-todoist is a client of the
 * import endpoint, with the user's own token.
 */
describe('operator CLI: backups and imports', () => {
  const { system, accounts: [owner, target] } = useSystem('cluster', { accounts: 2, env: { BACKUP_POLL_SECONDS: '1' } });
  const cli = (...args: string[]): Promise<Run> => run('cli', args, { DATABASE_URL: system.databaseUrl, LOG_LEVEL: 'silent' });

  it('backup makes one now, even on a plan without automatic backups, and prints its version', async () => {
    const made = await cli('backup', '--email', owner.email);
    expect(made.stderr).toBe('');
    expect(made.stdout).toMatch(new RegExp(`^backup \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} made for account ${owner.userId} <${owner.email}>\n$`));
    const listed = await http(system.url, 'GET', '/api/v1/backups', { token: owner.token });
    expect(listed.body).toHaveLength(1);
    const unknown = await cli('backup', '--email', 'nobody@example.test');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('error: USER_NOT_FOUND:');
  });

  it('import-todoist sends a full sync\'s JSON to the import endpoint and prints what it made', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'doable-cli-import-'));
    try {
      const file = join(folder, 'todoist.json');
      writeFileSync(file, JSON.stringify({ projects: [{ id: 'a', name: 'From the CLI' }], items: [{ id: 'b', project_id: 'a', content: 'Imported by the CLI' }] }));
      const imported = await cli('import-todoist', '--file', file, '--token', target.token, '--url', system.url);
      expect(imported.stderr).toBe('');
      expect(imported.stdout).toBe('imported: project_add 1, item_add 1\n');
      const tasks = await http(system.url, 'GET', '/api/v1/tasks', { token: target.token });
      expect(tasks.body.results.map((task: any) => task.content)).toEqual(['Imported by the CLI']);
      const refused = await cli('import-todoist', '--file', file, '--token', 'not-a-token', '--url', system.url);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('error: HTTP 401');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

/** The createAccount subject (what the harness and other services call) under the same policy, over the real transport. */
describe.each(MODES)('createAccount RPC (%s)', (mode) => {
  const { system } = useSystem(mode, { accounts: 0 });

  it.each([
    ['short', 'PASSWORD_TOO_SHORT'],
    ['password1', 'COMMON_PASSWORD'],
  ])('refuses the password %j with %s', async (password, code) => {
    await expect(system.createAccount({ password, waitForProfile: false })).rejects.toMatchObject({ code });
  });

  it('creates an account whose password passes', async () => {
    await expect(system.createAccount({ password: 'a perfectly sturdy passphrase' })).resolves.toMatchObject({ token: expect.stringMatching(/^[0-9a-f]{40}$/) });
  });
});

