import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

export const EVENT_LOOP_DELAY_METRIC = 'doable_event_loop_delay_seconds';

/** What is read of the delay histogram each sample (node's IntervalHistogram, in nanoseconds). */
export interface DelayHistogram {
  percentile(percentile: number): number;
  readonly max: number;
  reset(): void;
}

/** One sample: the delays timers met between `from` and `to` (epoch ms). */
export interface DelaySample {
  readonly from: number;
  readonly to: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

/** How often the histogram is read (and reset): the metric's and the readiness check's grain. */
const SAMPLE_EVERY_MS = 1_000;
/** Samples kept: enough for any readiness window up to ten minutes. */
const SAMPLES_KEPT = 600;

/**
 * How late the event loop runs what is due, sampled each second. Anything a request makes the
 * process do synchronously (parsing a large input, a big JSON) delays every other request by as
 * much; this is the measure of it. One monitor per process (embedded mode's services share one
 * loop, so they share one reading); each service's registry and readiness read it.
 */
export class EventLoopDelay {
  private static process: EventLoopDelay | undefined;
  private readonly samples: DelaySample[] = [];
  private last: number;

  constructor(
    private readonly histogram: DelayHistogram,
    now: number = Date.now(),
  ) {
    this.last = now;
  }

  /** The process's monitor, sampling on an unref'd timer (it never keeps the process alive). */
  static shared(): EventLoopDelay {
    if (!EventLoopDelay.process) {
      const histogram = monitorEventLoopDelay({ resolution: 10 });
      histogram.enable();
      const monitor = new EventLoopDelay(histogram);
      setInterval(() => monitor.sample(), SAMPLE_EVERY_MS).unref();
      EventLoopDelay.process = monitor;
    }
    return EventLoopDelay.process;
  }

  /** Reads the delays met since the last sample, and starts counting afresh. */
  sample(now: number = Date.now()): DelaySample {
    const sample = { from: this.last, to: now, p99Ms: this.histogram.percentile(99) / 1e6, maxMs: this.histogram.max / 1e6 };
    this.histogram.reset();
    this.last = now;
    this.samples.push(sample);
    if (this.samples.length > SAMPLES_KEPT) this.samples.shift();
    return sample;
  }

  latest(): DelaySample | undefined {
    return this.samples[this.samples.length - 1];
  }

  /**
   * How long the delay's p99 has stayed above `limitMs` without a break, up to the latest
   * sample; 0 when the latest sample is under it. A loop held once (one slow request) shows
   * in one sample; a loop that stays slow shows in every sample of the window.
   */
  highFor(limitMs: number): number {
    let since: number | undefined;
    for (let index = this.samples.length - 1; index >= 0 && this.samples[index].p99Ms > limitMs; index--) since = this.samples[index].from;
    const latest = this.latest();
    return since === undefined || !latest ? 0 : latest.to - since;
  }
}

/**
 * `doable_event_loop_delay_seconds{quantile="0.99"|"max"}`: the delay of the last second's
 * sample. prom-client's own `nodejs_eventloop_lag_p99_seconds` spans everything since the
 * previous scrape, so a short stall shows diluted; this one shows the last second as it was.
 */
export function registerEventLoopDelay(registry: Registry, monitor: EventLoopDelay): Gauge {
  return new Gauge({
    name: EVENT_LOOP_DELAY_METRIC,
    help: 'How late the event loop ran what was due, over the last one-second sample (p99 and max)',
    labelNames: ['quantile'],
    registers: [registry],
    collect() {
      const latest = monitor.latest();
      this.set({ quantile: '0.99' }, (latest?.p99Ms ?? 0) / 1000);
      this.set({ quantile: 'max' }, (latest?.maxMs ?? 0) / 1000);
    },
  });
}
