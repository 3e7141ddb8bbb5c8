import type { PlanInfo, UserPlanLimits } from '@doable/contracts-plans';

/**
 * `user_plan_limits` on api/v1, without `activity_log`. The official SDKs that talk to api/v1
 * disagree on its type and each throws on the other's: @doist/todoist-sdk 10.5 and 11 (what
 * @doist/todoist-api-typescript 7.10 and the MCP server run on Node 20) validate it as an integer,
 * 17 as a boolean, and their sync requests are byte for byte the same (checked: same headers, same
 * body), so the server cannot answer each its own. Both declare the key optional, so leaving it
 * out is the one answer both accept. The plan's activity log stays readable from
 * `activity_log_limit` (its days of history, -1 for all). Sync v9 and older keep the spec's boolean.
 */
export function writeApiV1PlanLimits(limits: UserPlanLimits): Record<string, unknown> {
  return { current: withoutActivityLog(limits.current), next: limits.next && withoutActivityLog(limits.next) };
}

function withoutActivityLog(plan: PlanInfo): Record<string, unknown> {
  const { activity_log: _omitted, ...rest } = plan;
  return rest;
}
