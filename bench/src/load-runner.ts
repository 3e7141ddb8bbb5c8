// The load generator's own process (so it never shares an event loop with what it measures):
// reads a LoadPlan as JSON on stdin, runs autocannon (warm-up, then the measured run) and
// prints one line `RESULT <json>` with a LoadResult.
import { randomUUID } from 'node:crypto';
import autocannon, { type AutocannonClient, type AutocannonOptions, type AutocannonRequest, type AutocannonResult } from 'autocannon';
import { runFailover } from './failover-client';
import type { GetPlan, LoadPlan, LoadResult, MixedPlan, PlanUser, PollPlan, RequestPlan } from './load-plan';

interface Counters {
  writes: number;
  writeErrors: number;
  badAnswers: number;
  failureSamples: string[];
}

/** Keeps the first few failed answers (status and the start of the body) for the report. */
function sample(counters: Counters, status: number, body: string): void {
  if (counters.failureSamples.length < 5) counters.failureSamples.push(`${status} ${body.slice(0, 300)}`);
}

function syncRequest(path: string, token: string, body: Record<string, unknown>): AutocannonRequest {
  return { method: 'POST', path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** Round-robin over users; each connection starts at a different user so they do not move in lockstep. */
function pollOptions(plan: PollPlan, counters: Counters): Pick<AutocannonOptions, 'setupClient'> {
  const check = (status: number, body: string) => {
    if (status < 200 || status > 299) sample(counters, status, body); // counted by autocannon as non2xx
    else if (!body.includes('"sync_token"')) {
      counters.badAnswers++;
      sample(counters, status, body);
    }
  };
  const requests = plan.users.map((user) => ({ ...syncRequest(plan.path, user.token, { sync_token: user.syncToken, resource_types: ['all'] }), onResponse: check }));
  let clients = 0;
  return {
    setupClient(client: AutocannonClient) {
      const offset = (clients++ * 7) % requests.length;
      client.setRequests([...requests.slice(offset), ...requests.slice(0, offset)]);
    },
  };
}

/**
 * One client per connection, with state kept in this closure (autocannon resets its own
 * per-connection context every time a request list wraps around, i.e. every request here).
 */
function mixedOptions(plan: MixedPlan, counters: Counters): Pick<AutocannonOptions, 'setupClient' | 'connectionRate'> {
  let clients = 0;
  return {
    connectionRate: 1,
    setupClient(client: AutocannonClient) {
      const user: PlanUser = plan.users[clients++ % plan.users.length];
      let syncToken = user.syncToken;
      // A random phase, so one client in ten writes in any given second rather than all at once.
      let count = Math.floor(Math.random() * plan.writeEvery);
      let pendingWrite: string | undefined;
      client.setRequests([
        {
          setupRequest() {
            count++;
            pendingWrite = count % plan.writeEvery === 0 ? randomUUID() : undefined;
            const commands = pendingWrite ? [{ type: 'item_add', uuid: pendingWrite, temp_id: randomUUID(), args: { content: `Bench task ${count}` } }] : undefined;
            return syncRequest(plan.path, user.token, { sync_token: syncToken, resource_types: ['all'], ...(commands ? { commands } : {}) });
          },
          onResponse(status: number, body: string) {
            const write = pendingWrite;
            pendingWrite = undefined;
            if (write) counters.writes++;
            if (status < 200 || status > 299) return sample(counters, status, body); // counted by autocannon as non2xx
            let answer: { sync_token?: unknown; sync_status?: Record<string, unknown> };
            try {
              answer = JSON.parse(body) as typeof answer;
            } catch {
              counters.badAnswers++;
              return sample(counters, status, body);
            }
            if (typeof answer.sync_token === 'string') syncToken = answer.sync_token;
            else {
              counters.badAnswers++;
              sample(counters, status, body);
            }
            if (write && answer.sync_status?.[write] !== 'ok') {
              counters.writeErrors++;
              sample(counters, status, body);
            }
          },
        },
      ]);
    },
  };
}

/** The same GET on every connection, checked for the expected start of the answer. */
function getOptions(plan: GetPlan, counters: Counters): Pick<AutocannonOptions, 'requests'> {
  const token = plan.users[0]?.token ?? '';
  return {
    requests: [
      {
        method: 'GET',
        path: plan.path,
        headers: { authorization: `Bearer ${token}` },
        onResponse(status: number, body: string) {
          if (status < 200 || status > 299) return sample(counters, status, body); // counted by autocannon as non2xx
          if (!body.startsWith(plan.expectPrefix)) {
            counters.badAnswers++;
            sample(counters, status, body);
          }
        },
      },
    ],
  };
}

/** The same request on every connection, checked for the expected text in the answer. */
function requestOptions(plan: RequestPlan, counters: Counters): Pick<AutocannonOptions, 'requests'> {
  return {
    requests: [
      {
        method: plan.method,
        path: plan.path,
        headers: { ...plan.headers },
        ...(plan.body === undefined ? {} : { body: plan.body }),
        onResponse(status: number, body: string) {
          if (status < 200 || status > 299) return sample(counters, status, body); // counted by autocannon as non2xx
          if (!body.includes(plan.expectIncludes)) {
            counters.badAnswers++;
            sample(counters, status, body);
          }
        },
      },
    ],
  };
}

function run(plan: Exclude<LoadPlan, { kind: 'failover' }>, durationS: number): Promise<{ result: AutocannonResult; counters: Counters }> {
  const counters: Counters = { writes: 0, writeErrors: 0, badAnswers: 0, failureSamples: [] };
  const specific =
    plan.kind === 'poll' ? pollOptions(plan, counters) : plan.kind === 'get' ? getOptions(plan, counters) : plan.kind === 'request' ? requestOptions(plan, counters) : mixedOptions(plan, counters);
  // Several URLs (gateway replicas): autocannon deals its connections out over them in turn.
  const url = plan.urls && plan.urls.length > 0 ? [...plan.urls] : plan.url;
  return new Promise((ok, fail) => {
    autocannon({ url, connections: plan.connections, duration: durationS, timeout: 10, ...specific }, (err, result) => (err ? fail(err) : ok({ result, counters })));
  });
}

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += (chunk as Buffer).toString();
  return text;
}

async function main(): Promise<void> {
  const plan = JSON.parse(await readStdin()) as LoadPlan;
  if (plan.kind === 'failover') {
    if (plan.warmupS > 0) await runFailover(plan, plan.warmupS);
    process.stdout.write(`RESULT ${JSON.stringify(await runFailover(plan, plan.durationS))}\n`);
    return;
  }
  if (plan.warmupS > 0) await run(plan, plan.warmupS);
  const cpuBefore = process.cpuUsage();
  const { result, counters } = await run(plan, plan.durationS);
  const cpu = process.cpuUsage(cpuBefore);
  const summary: LoadResult = {
    durationS: result.duration,
    requests: result.requests.total,
    requestsPerSec: result.requests.average,
    latency: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, mean: result.latency.mean },
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    ...counters,
    generatorCpuMs: Math.round((cpu.user + cpu.system) / 1000),
  };
  process.stdout.write(`RESULT ${JSON.stringify(summary)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`load runner failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
