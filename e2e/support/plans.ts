import { http, waitFor } from '@doable/shared-testing';
import { withOverloadRetries } from './overload-retries';
import type { Account, SystemUnderTest } from './system-view';

/** The user's `user_plan_limits` as sync v9 serves it (a full read of that one resource). */
export async function planLimitsOf(system: SystemUnderTest, account: Pick<Account, 'token'>): Promise<any> {
  const response = await withOverloadRetries(() => http(system.url, 'POST', '/sync/v9/sync', { token: account.token, json: { sync_token: '*', resource_types: ['user_plan_limits'] } }));
  expect(response.status).toBe(200);
  return response.body.user_plan_limits;
}

/**
 * Puts an account on a plan of the e2e catalogue (e2e/support/plans.e2e.json) as an operator's
 * `npm run cli -- set-plan` does (SystemUnderTest.assignPlan: the plans service writes its
 * outbox), and waits until sync serves it: the change reaches sync through the relay.
 */
export async function setPlan(system: SystemUnderTest, account: Pick<Account, 'userId' | 'token'>, plan: string): Promise<void> {
  await system.assignPlan({ userId: account.userId }, plan);
  await waitFor(async () => (await planLimitsOf(system, account))?.current?.plan_name === plan, `user ${account.userId} on plan ${plan}`, 20_000);
}

/** A workspace as api/v1 serves it to one of its members (a full read of `workspaces`), if they see it. */
export async function workspaceOf(system: SystemUnderTest, member: Pick<Account, 'token'>, workspaceId: string): Promise<any> {
  const response = await withOverloadRetries(() => http(system.url, 'POST', '/api/v1/sync', { token: member.token, json: { sync_token: '*', resource_types: ['workspaces'] } }));
  expect(response.status).toBe(200);
  return (response.body.workspaces as any[]).find((workspace) => workspace.id === workspaceId);
}

/**
 * Puts a workspace on a workspace plan of the e2e catalogue (its `workspace_plans`: team-roomy is
 * the default, team-tiny, team-business, starter, business) as `npm run cli --
 * set-workspace-plan` does, and waits until sync serves it to `member` (any member of the
 * workspace).
 */
export async function setWorkspacePlan(system: SystemUnderTest, member: Pick<Account, 'token'>, workspaceId: string, plan: string): Promise<void> {
  await system.assignPlan({ workspaceId }, plan);
  await waitFor(async () => (await workspaceOf(system, member, workspaceId))?.limits?.current?.plan_name === plan, `workspace ${workspaceId} on plan ${plan}`, 20_000);
}
