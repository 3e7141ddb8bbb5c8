import { runLoad } from '../load';
import { residentMiB } from '../metrics';
import type { Scenario } from './scenario';
import { failures } from './s1-no-change-sync';

const CLIENTS = 100;
const WRITE_EVERY = 10;
const RSS_SAMPLE_MS = 10_000;

/**
 * S6 models a normal day: many clients, each syncing every second with the token of its last
 * answer and writing now and then. There is no baseline; what matters is that nothing fails
 * and no service's memory keeps growing. The write is an `item_add` (load-runner.ts).
 */
export const s6Mixed: Scenario = {
  id: 'S6',
  title: `mixed: ${CLIENTS} clients, a sync per second each, an item_add every ${WRITE_EVERY}th`,
  target: '0 errors, no RSS growth trend',
  async run(context) {
    const { cluster, users } = await context.cluster();
    const durationS = context.options.mixedDurationS;
    const samples: Array<{ atS: number; rssMiB: Record<string, number | null> }> = [];
    const started = Date.now();
    const sample = async () => samples.push({ atS: Math.round((Date.now() - started) / 1000), rssMiB: await residentMiB(cluster.serviceUrls) });
    await sample();
    // Sampling is bounded by the run: the timer stops as soon as the load runner answers.
    const timer = setInterval(() => void sample(), RSS_SAMPLE_MS);
    let result;
    try {
      result = await runLoad({ kind: 'mixed', url: cluster.gatewayUrl, path: '/api/v1/sync', users: users.slice(0, CLIENTS), connections: CLIENTS, durationS, warmupS: 0, writeEvery: WRITE_EVERY });
    } finally {
      clearInterval(timer);
    }
    await sample();
    const before = samples[0].rssMiB;
    const after = samples[samples.length - 1].rssMiB;
    const growth = Object.keys(before).map((service) => ({ service, before: before[service] ?? null, after: after[service] ?? null, max: Math.max(...samples.map((s) => s.rssMiB[service] ?? 0)) }));
    // "Growth trend": every sample after the first at least as high as the one before it, and
    // the last more than 10% above the first. One minute is short: this flags, it does not prove.
    const trending = growth.filter(({ service }) => {
      const series = samples.map((s) => s.rssMiB[service] ?? 0);
      const rising = series.every((value, index) => index === 0 || value >= series[index - 1]);
      return rising && series[series.length - 1] > series[0] * 1.1;
    });
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
          `${durationS} s; RSS MiB before -> after: ${growth.map((g) => `${g.service} ${g.before} -> ${g.after}`).join(', ')}`,
          trending.length > 0 ? `RSS rose at every sample and ended >10% higher: ${trending.map((t) => t.service).join(', ')}` : 'no service RSS rose steadily',
          ...(errors > 0 ? [`first failures: ${result.failureSamples.slice(0, 3).join(' || ')}`] : []),
        ],
        details: { load: result, rssSamples: samples, growth },
      },
    ];
  },
};
