import { randomUUID } from 'node:crypto';
import { backendPids, CpuMeter, pidByName } from '../cpu';
import { createAccounts, postSync, waitForProfiles } from '../accounts';
import { runLoad } from '../load';
import type { LoadResult, RequestPlan } from '../load-plan';
import { TEST_POSTGRES_ADMIN_URL } from '@doable/shared-testing';
import { failures } from './s1-no-change-sync';
import type { BenchContext, Scenario, ScenarioRow } from './scenario';

const TASKS = 50;
const CONNECTIONS = 16;
/** Each side runs this many times, alternating with the other, so both see the same moments of a noisy machine. */
const ROUNDS = 2;
/**
 * A guess made before measuring (issue #18 gives none). An MCP call is the REST call plus one
 * more service on the way (gateway -> mcp -> rest -> sync instead of gateway -> rest -> sync),
 * a JSON-RPC envelope, a fresh MCP server per request (stateless: the tools registered, the
 * arguments validated), and the answer written twice (structured content and the same as text).
 * Half the REST throughput is what such an extra hop with double the serialisation should cost.
 */
const TARGET_RATIO = 0.5;
const MCP_PROTOCOL_VERSION = '2025-06-18';

/**
 * S11: an assistant's tool call (the MCP server) against the same read through REST.
 * `find-tasks` with a project id over `POST /mcp` (stateless, JSON answer, a personal token)
 * against `GET /api/v1/tasks?project_id=…&limit=50` through the gateway, on one account whose
 * project holds 50 tasks: both answer the same 50 tasks (checked before anything is timed).
 */
export const s11McpToolCall: Scenario = {
  id: 'S11',
  title: `MCP tool call: find-tasks (${TASKS} tasks) over POST /mcp vs the same GET /api/v1/tasks`,
  target: `>= ${TARGET_RATIO} of REST req/s (a guess)`,
  run: async (context) => [await measure(context)],
};

interface Plans {
  readonly rest: RequestPlan;
  readonly mcp: RequestPlan;
}

async function measure(context: BenchContext): Promise<ScenarioRow> {
  const { cluster } = await context.cluster();
  const [account] = await createAccounts(cluster.databaseUrl, `${context.runId}-s11`, 1);
  await waitForProfiles(cluster.databaseUrl, [account.userId]);
  const projectId = await seedProject(cluster.gatewayUrl, account.token);
  const plans = requestPlans(cluster.gatewayUrl, account.token, projectId, context.options.durationS);
  await sameAnswer(cluster.gatewayUrl, plans);

  const pidOf = (service: string) => cluster.children.get(service)!.pid;
  const nats = await pidByName('nats-server');
  const groups = async () =>
    new Map<string, number[]>([
      ...['gateway', 'mcp', 'rest', 'sync'].map((service) => [service, [pidOf(service)]] as [string, number[]]),
      ...(nats === undefined ? [] : [['nats-server', [nats]] as [string, number[]]]),
      ['postgres', await backendPids(cluster.databaseUrl, TEST_POSTGRES_ADMIN_URL)],
    ]);
  if (context.options.warmupS > 0) {
    await runLoad({ ...plans.rest, durationS: context.options.warmupS });
    await runLoad({ ...plans.mcp, durationS: context.options.warmupS });
  }
  const runs: { rest: LoadResult[]; mcp: LoadResult[]; restCpu: Array<Record<string, number>>; mcpCpu: Array<Record<string, number>> } = { rest: [], mcp: [], restCpu: [], mcpCpu: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of ['rest', 'mcp'] as const) {
      const meter = new CpuMeter(groups);
      await meter.start();
      const result = await runLoad(plans[side]);
      runs[side].push(result);
      runs[side === 'rest' ? 'restCpu' : 'mcpCpu'].push(await meter.perRequest(result.requests));
    }
  }
  const rest = combine(runs.rest);
  const mcp = combine(runs.mcp);
  const ratio = Math.round((mcp['req/s'] / rest['req/s']) * 100) / 100;
  const clean = mcp.failures === 0 && rest.failures === 0;
  const samples = [...runs.mcp, ...runs.rest].flatMap((result) => result.failureSamples).slice(0, 3);
  return {
    id: 'S11',
    mode: 'cluster',
    what: s11McpToolCall.title,
    status: 'measured',
    product: mcp,
    baseline: rest,
    ratio: { name: 'req/s MCP / REST', value: ratio },
    target: s11McpToolCall.target,
    pass: clean && ratio >= TARGET_RATIO,
    valid: clean,
    notes: [
      `${ROUNDS} runs of ${plans.rest.durationS} s per side, alternating, ${CONNECTIONS} connections, after a ${context.options.warmupS} s warm-up of each; baseline: the same read through REST api/v1`,
      `CPU ms per request, MCP: ${describe(average(runs.mcpCpu))}; REST: ${describe(average(runs.restCpu))}`,
      ...(clean ? [] : [`some requests failed, so the figures are not valid; first: ${samples.join(' || ')}`]),
    ],
    details: { mcpRuns: runs.mcp, restRuns: runs.rest, cpuMsPerRequest: { mcp: runs.mcpCpu, rest: runs.restCpu } },
  };
}

/** A project with TASKS tasks, made through the Sync API (one request). */
async function seedProject(gatewayUrl: string, token: string): Promise<string> {
  const commands = [
    { type: 'project_add', uuid: randomUUID(), temp_id: 'project', args: { name: 'S11 project' } },
    ...Array.from({ length: TASKS }, (_, index) => ({ type: 'item_add', uuid: randomUUID(), temp_id: randomUUID(), args: { content: `S11 task ${index}`, project_id: 'project', priority: 1 + (index % 4) } })),
  ];
  const answer = await postSync(gatewayUrl, token, { commands });
  const projectId = (answer.body['temp_id_mapping'] as Record<string, string> | undefined)?.['project'];
  const statuses = Object.values((answer.body['sync_status'] as Record<string, unknown> | undefined) ?? {});
  if (answer.status !== 200 || !projectId || statuses.some((status) => status !== 'ok')) throw new Error(`S11: could not seed the project: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  return projectId;
}

function requestPlans(gatewayUrl: string, token: string, projectId: string, durationS: number): Plans {
  const base = { url: gatewayUrl, users: [], connections: CONNECTIONS, durationS: Math.max(1, Math.round(durationS / ROUNDS)), warmupS: 0 };
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find-tasks', arguments: { projectId, limit: TASKS } } };
  return {
    rest: { ...base, kind: 'request', method: 'GET', path: `/api/v1/tasks?project_id=${projectId}&limit=${TASKS}`, headers: { authorization: `Bearer ${token}` }, expectIncludes: '"results"' },
    mcp: {
      ...base,
      kind: 'request',
      method: 'POST',
      path: '/mcp',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MCP_PROTOCOL_VERSION },
      body: JSON.stringify(call),
      expectIncludes: '"structuredContent"',
    },
  };
}

/** Both sides must answer the same TASKS tasks before anything is timed. */
async function sameAnswer(gatewayUrl: string, plans: Plans): Promise<void> {
  const ask = async (plan: RequestPlan) => {
    const response = await fetch(new URL(plan.path, gatewayUrl), { method: plan.method, headers: plan.headers, body: plan.body, signal: AbortSignal.timeout(10_000) });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`S11: ${plan.method} ${plan.path} answered ${response.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as { results?: Array<{ id: string }>; result?: { structuredContent?: { tasks?: Array<{ id: string }> } } };
  };
  const rest = (await ask(plans.rest)).results ?? [];
  const mcp = (await ask(plans.mcp)).result?.structuredContent?.tasks ?? [];
  const ids = (tasks: Array<{ id: string }>) => tasks.map((task) => task.id).sort().join(',');
  if (rest.length !== TASKS || ids(rest) !== ids(mcp)) throw new Error(`S11: the answers differ: REST ${rest.length} tasks, MCP ${mcp.length}`);
}

/** Runs of one side as one figure: requests over their total time; the latencies of the runs averaged. */
function combine(results: readonly LoadResult[]): Record<string, number> {
  const requests = results.reduce((sum, result) => sum + result.requests, 0);
  const seconds = results.reduce((sum, result) => sum + result.durationS, 0);
  const mean = (pick: (result: LoadResult) => number) => Math.round((results.reduce((sum, result) => sum + pick(result), 0) / results.length) * 10) / 10;
  return { 'req/s': Math.round(requests / seconds), 'p50 ms': mean((result) => result.latency.p50), 'p99 ms': mean((result) => result.latency.p99), failures: results.reduce((sum, result) => sum + failures(result), 0) };
}

function average(runs: ReadonlyArray<Record<string, number>>): Record<string, number> {
  const names = Object.keys(runs[0] ?? {});
  return Object.fromEntries(names.map((name) => [name, Math.round((runs.reduce((sum, run) => sum + (run[name] ?? 0), 0) / runs.length) * 100) / 100]));
}

function describe(cpu: Record<string, number>): string {
  return Object.entries(cpu)
    .map(([name, ms]) => `${name} ${ms}`)
    .join(', ');
}
