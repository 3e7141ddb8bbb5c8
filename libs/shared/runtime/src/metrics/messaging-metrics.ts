import { EVENT_BUS, type EventBus } from '@doable/shared-transport';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { databaseAnswers } from '../health/database-answers';
import { Database } from '../service/database';
import { METRICS_REGISTRY } from '../service/tokens';
import { scrapeReading } from './scrape-reading';

/** Buckets for waits that are milliseconds when all is well and minutes when something is stuck. */
const LAG_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 900];

/**
 * The gauges an operator alerts on (ops/ and k8s/components/monitoring): whether the service
 * reaches its broker and database, and how far its outbox is behind. Each is read when
 * Prometheus scrapes, so a value is never older than the scrape and costs nothing between
 * scrapes (the outbox query uses its partial index on unpublished rows).
 */
@Injectable()
export class MessagingMetrics {
  constructor(
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Inject(EVENT_BUS) bus: EventBus,
    @Optional() database?: Database,
  ) {
    new Gauge({
      name: 'doable_dependency_up',
      help: 'Whether the service reaches a dependency at scrape time (1) or not (0): broker, database',
      labelNames: ['dependency'],
      registers: [registry],
      async collect() {
        this.set({ dependency: 'broker' }, bus.isConnected() ? 1 : 0);
        if (database) this.set({ dependency: 'database' }, (await databaseAnswers(database)) ? 1 : 0);
      },
    });
    if (!database) return;
    // Both outbox gauges show one row, read once per scrape.
    const read = scrapeReading(async () => {
      const [row] = await database.query<Array<{ lag: number; pending: number }>>(
        `SELECT coalesce(extract(epoch FROM now() - min(occurred_at)), 0)::float8 AS lag, count(*)::int AS pending FROM "${database.schema}".outbox WHERE published_at IS NULL`,
      );
      return row;
    });
    new Gauge({
      name: 'doable_outbox_lag_seconds',
      help: 'Age of the oldest event committed to the outbox and not yet published (0: none waiting; NaN: the database did not answer)',
      registers: [registry],
      async collect() {
        this.set((await read())?.lag ?? Number.NaN);
      },
    });
    new Gauge({
      name: 'doable_outbox_pending',
      help: 'Events committed to the outbox and not yet published',
      registers: [registry],
      async collect() {
        this.set((await read())?.pending ?? Number.NaN);
      },
    });
  }
}

/** How long after an event happened each consumer handled it, and its failures (EventConsumers). */
export function consumerMetrics(registry: Registry): { lag: Histogram<'durable'>; failures: Counter<'durable'> } {
  return {
    lag: new Histogram({
      name: 'doable_event_consumer_lag_seconds',
      help: 'Seconds from an event occurring (its outbox commit) to a durable consumer having handled it',
      labelNames: ['durable'],
      buckets: LAG_BUCKETS,
      registers: [registry],
    }),
    failures: new Counter({
      name: 'doable_event_consumer_failures_total',
      help: 'Events a durable consumer failed to handle (the broker redelivers them)',
      labelNames: ['durable'],
      registers: [registry],
    }),
  };
}

/** The kernel's ServiceClient observer: request latency per subject and outcome. */
export function requestMetrics(registry: Registry): (subject: string, seconds: number, outcome: string) => void {
  const histogram = new Histogram({
    name: 'doable_rpc_client_seconds',
    help: 'Seconds from sending a request over the broker to its whole reply (or its failure), by subject and outcome (ok, refused, unavailable)',
    labelNames: ['subject', 'outcome'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60],
    registers: [registry],
  });
  return (subject, seconds, outcome) => histogram.observe({ subject, outcome }, seconds);
}
