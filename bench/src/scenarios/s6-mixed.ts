import { TEST_POSTGRES_ADMIN_URL } from '@doable/shared-testing';
import { clusterCpuGroups, CpuMeter } from '../cpu';
import { runLoad } from '../load';
import { memoryMiB } from '../metrics';
import type { Scenario } from './scenario';
import { failures } from './s1-no-change-sync';

const CLIENTS = 100;
const WRITE_EVERY = 10;
const SAMPLE_MS = 10_000;

/**
 * Every sample at least the one before, and the last more than 10% above the first. Samples
 * missing (a service that did not answer, or had no full collection yet) are left out.
 */
export function risesSteadily(series: ReadonlyArray<number | null>): boolean {
  const values = series.filter((value): value is number => value !== null && value > 0);
  if (values.length < 2) return false;
  const rising = values.every((value, index) => index === 0 || value >= values[index - 1]);
  return rising && values[values.length - 1] > values[0] * 1.1;
}

/**
 * S6 models a normal day: many clients, each syncing every second with the token of its last
 * answer and writing now and then. There is no baseline; what matters is that nothing fails
 * and no service keeps memory it should have let go. The write is an `item_add` (load-runner.ts).
 *
 * The judgement is on each service's V8 heap left after a full collection, not on RSS: in a
 * 600 s S6 the gateway's RSS went from 126 to 255 MiB while its heap after each of its 20 full
 * collections under load stayed at 33-36 MiB (docs/performance/s6-memory.md). RSS also counts the heap's reserved
 * size, which V8 grows with the allocation rate, JIT code, and freed pages malloc keeps. RSS is
 * still sampled and reported, and a steady rise of it is noted.
 */
export const s6Mixed: Scenario = {
  id: 'S6',
  title: `mixed: ${CLIENTS} clients, a sync per second each, an item_add every ${WRITE_EVERY}th`,
  target: '0 errors, no growth trend in the heap left after GC (RSS reported)',
  async run(context) {
    const { cluster, users } = await context.cluster();
    const durationS = context.options.mixedDurationS;
    const samples: Array<{ atS: number; rssMiB: Record<string, number | null>; heapAfterGcMiB: Record<string, number | null> }> = [];
    const started = Date.now();
    const sample = async () => {
      const atS = Math.round((Date.now() - started) / 1000);
      const { rss, heapAfterGc } = await memoryMiB(cluster.serviceUrls);
      samples.push({ atS, rssMiB: rss, heapAfterGcMiB: heapAfterGc });
    };
    await sample();
    // Sampling is bounded by the run: the timer stops as soon as the load runner answers.
    const timer = setInterval(() => void sample(), SAMPLE_MS);
    let result;
    const meter = new CpuMeter(clusterCpuGroups(cluster, TEST_POSTGRES_ADMIN_URL));
    await meter.start();
    try {
      result = await runLoad({ kind: 'mixed', url: cluster.gatewayUrl, path: '/api/v1/sync', users: users.slice(0, CLIENTS), connections: CLIENTS, durationS, warmupS: 0, writeEvery: WRITE_EVERY });
    } finally {
      clearInterval(timer);
    }
    const cpu = await meter.perRequest(result.requests);
    await sample();
    const before = samples[0].rssMiB;
    const after = samples[samples.length - 1].rssMiB;
    const growth = Object.keys(before).map((service) => ({ service, before: before[service] ?? null, after: after[service] ?? null, max: Math.max(...samples.map((s) => s.rssMiB[service] ?? 0)) }));
    // The heap is judged from the first sample taken under load (10 s in): by then the 100
    // connections are open and the hot code compiled, which the heap rightly holds.
    const loaded = samples.length > 2 ? samples.slice(1) : samples;
    // A service's first reading is its first full collection under load: a quiet one may have none for a while.
    const heapGrowth = Object.keys(before).map((service) => {
      const readings = loaded.filter((s) => (s.heapAfterGcMiB[service] ?? 0) > 0);
      return { service, firstAtS: readings[0]?.atS ?? null, first: readings[0]?.heapAfterGcMiB[service] ?? null, last: readings[readings.length - 1]?.heapAfterGcMiB[service] ?? null };
    });
    // One minute is short: this flags, it does not prove.
    const trending = heapGrowth.filter(({ service }) => risesSteadily(loaded.map((s) => s.heapAfterGcMiB[service] ?? null)));
    const rssTrending = growth.filter(({ service }) => risesSteadily(samples.map((s) => s.rssMiB[service] ?? null)));
    const errors = failures(result);
    const errorRate = result.requests > 0 ? errors / result.requests : 0;
    return [
      {
        id: 'S6',
        mode: 'cluster',
        what: s6Mixed.title,
        status: 'measured',
        product: {
          'req/s': Math.round(result.requestsPerSec),
          'p50 ms': result.latency.p50,
          'p99 ms': result.latency.p99,
          requests: result.requests,
          writes: result.writes,
          'error rate': errorRate,
        },
        target: s6Mixed.target,
        pass: errors === 0 && trending.length === 0,
        notes: [
          `CPU ms per request (the capacity model's check, docs/operations/capacity.md): ${Object.entries(cpu).map(([name, ms]) => `${name} ${ms}`).join(', ')}`,
          `${durationS} s; heap after GC MiB, first reading under load (its second) -> end: ${heapGrowth.map((g) => `${g.service} ${g.first} (${g.firstAtS} s) -> ${g.last}`).join(', ')}`,
          trending.length > 0 ? `heap after GC rose at every sample and ended >10% higher: ${trending.map((t) => t.service).join(', ')}` : 'no service\'s heap after GC rose steadily',
          `RSS MiB before -> after: ${growth.map((g) => `${g.service} ${g.before} -> ${g.after}`).join(', ')}`,
          rssTrending.length > 0 ? `RSS rose at every sample and ended >10% higher (reported, not judged: see the heap): ${rssTrending.map((t) => t.service).join(', ')}` : 'no service RSS rose steadily',
          ...(errors > 0 ? [`first failures: ${result.failureSamples.slice(0, 3).join(' || ')}`] : []),
        ],
        details: { load: result, samples, growth, heapGrowth, cpuMsPerRequest: { product: cpu } },
      },
    ];
  },
};
