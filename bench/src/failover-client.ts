// S13's clients behind a load balancer: no-change syncs from many connections over several
// gateways, where a connection that fails is retried on the next gateway (as a balancer retries
// an idempotent read). autocannon cannot do this: it reconnects to the same address forever.
import { Agent, request } from 'node:http';
import type { FailoverPlan, LoadResult } from './load-plan';
import { percentile } from './stats';

const TIMEOUT_MS = 10_000;
/** A gateway whose connection failed is skipped for this long (a balancer's health mark). */
const MARKED_DOWN_MS = 1_000;
const ATTEMPTS = 3;

class ConnectionFailed extends Error {}

function post(url: string, agent: Agent, path: string, token: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((ok, fail) => {
    const req = request(new URL(path, url), { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => ok({ status: response.statusCode ?? 0, text }));
      response.on('error', (err) => fail(new ConnectionFailed(err.message)));
    });
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error('timeout')));
    // Refused, reset or closed before an answer: the balancer's case for another gateway.
    req.on('error', (err) => fail(err.message === 'timeout' ? err : new ConnectionFailed(`${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}`)));
    req.end(body);
  });
}

export async function runFailover(plan: FailoverPlan, durationS: number): Promise<LoadResult> {
  const urls = plan.urls && plan.urls.length > 0 ? plan.urls : [plan.url];
  const agents = urls.map(() => new Agent({ keepAlive: true, maxSockets: plan.connections }));
  const downUntil = urls.map(() => 0);
  const latencies: number[] = [];
  const failureSamples: string[] = [];
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  let badAnswers = 0;
  let retriedElsewhere = 0;
  const failed = (what: string) => failureSamples.length < 5 && failureSamples.push(what);
  const started = Date.now();
  const end = started + durationS * 1000;
  const client = async (index: number) => {
    let next = (index * 7) % plan.users.length;
    let gateway = index % urls.length;
    while (Date.now() < end) {
      const user = plan.users[next++ % plan.users.length];
      const body = JSON.stringify({ sync_token: user.syncToken, resource_types: ['all'] });
      const sent = performance.now();
      for (let attempt = 1; ; attempt++) {
        for (let skipped = 0; skipped < urls.length && downUntil[gateway % urls.length] > Date.now(); skipped++) gateway++;
        const target = gateway % urls.length;
        try {
          const { status, text } = await post(urls[target], agents[target], plan.path, user.token, body);
          latencies.push(performance.now() - sent);
          if (status < 200 || status > 299) {
            non2xx++;
            failed(`${status} ${text.slice(0, 300)}`);
          } else if (!text.includes('"sync_token"')) {
            badAnswers++;
            failed(`${status} ${text.slice(0, 300)}`);
          }
          break;
        } catch (err) {
          if (!(err instanceof ConnectionFailed)) {
            timeouts++;
            failed(`timeout at ${urls[target]}`);
            break;
          }
          downUntil[target] = Date.now() + MARKED_DOWN_MS;
          gateway++;
          if (attempt >= ATTEMPTS) {
            errors++;
            failed(`connection failed ${ATTEMPTS} times, last at ${urls[target]}: ${err.message}`);
            break;
          }
          retriedElsewhere++;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: plan.connections }, (_, index) => client(index)));
  for (const agent of agents) agent.destroy();
  const elapsedS = (Date.now() - started) / 1000;
  const round = (value: number) => Math.round(value * 100) / 100;
  return {
    durationS: elapsedS,
    requests: latencies.length,
    requestsPerSec: latencies.length / elapsedS,
    latency: {
      p50: round(percentile(latencies, 50)),
      p90: round(percentile(latencies, 90)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies.reduce((most, value) => Math.max(most, value), 0)),
      mean: round(latencies.reduce((sum, value) => sum + value, 0) / Math.max(1, latencies.length)),
    },
    non2xx,
    errors,
    timeouts,
    writes: 0,
    writeErrors: 0,
    badAnswers,
    failureSamples,
    retriedElsewhere,
  };
}
