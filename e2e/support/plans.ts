import { http, waitFor } from '@doable/shared-testing';
import { run } from './processes';
import type { Account, SystemUnderTest } from './system-view';

/** The user's `user_plan_limits` as sync v9 serves it (a full read of that one resource). */
export async function planLimitsOf(system: SystemUnderTest, account: Pick<Account, 'token'>): Promise<any> {
  const response = await http(system.url, 'POST', '/sync/v9/sync', { token: account.token, json: { sync_token: '*', resource_types: ['user_plan_limits'] } });
  expect(response.status).toBe(200);
  return response.body.user_plan_limits;
}

/**
 * Puts an account on a plan of the e2e catalogue (e2e/support/plans.e2e.json) the way an operator
 * does, with `npm run cli -- set-plan`, and waits until sync serves it: the CLI only writes the
 * plans service's outbox, and its relay carries the change to sync a moment later. The CLI runs
 * without blocking this process, which in embedded mode is also the database's server.
 */
export async function setPlan(system: SystemUnderTest, account: Pick<Account, 'email' | 'token'>, plan: string): Promise<void> {
  const result = await run('cli', ['set-plan', '--email', account.email, '--plan', plan], { DATABASE_URL: system.databaseUrl, LOG_LEVEL: 'silent' });
  if (result.status !== 0) throw new Error(`set-plan ${account.email} ${plan} exited ${result.status}:\n${result.stderr}`);
  await waitFor(async () => (await planLimitsOf(system, account))?.current?.plan_name === plan, `${account.email} on plan ${plan}`, 20_000);
}

/** A workspace as api/v1 serves it to one of its members (a full read of `workspaces`), if they see it. */
export async function workspaceOf(system: SystemUnderTest, member: Pick<Account, 'token'>, workspaceId: string): Promise<any> {
  const response = await http(system.url, 'POST', '/api/v1/sync', { token: member.token, json: { sync_token: '*', resource_types: ['workspaces'] } });
  expect(response.status).toBe(200);
  return (response.body.workspaces as any[]).find((workspace) => workspace.id === workspaceId);
}

/**
 * Puts a workspace on a workspace plan of the e2e catalogue (its `workspace_plans`: team-roomy is
 * the default, team-tiny, team-business, starter, business) with
 * `npm run cli -- set-workspace-plan`, as an operator does, and waits until sync serves it to
 * `member` (any member of the workspace): the CLI only writes the plans service's outbox.
 */
export async function setWorkspacePlan(system: SystemUnderTest, member: Pick<Account, 'token'>, workspaceId: string, plan: string): Promise<void> {
  const result = await run('cli', ['set-workspace-plan', '--workspace', workspaceId, '--plan', plan], { DATABASE_URL: system.databaseUrl, LOG_LEVEL: 'silent' });
  if (result.status !== 0) throw new Error(`set-workspace-plan ${workspaceId} ${plan} exited ${result.status}:\n${result.stderr}`);
  await waitFor(async () => (await workspaceOf(system, member, workspaceId))?.limits?.current?.plan_name === plan, `workspace ${workspaceId} on plan ${plan}`, 20_000);
}
