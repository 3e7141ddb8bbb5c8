import { Database, METRICS_REGISTRY, scrapeReading } from '@doable/shared-runtime';
import { Inject, Injectable } from '@nestjs/common';
import { Gauge, type Registry } from 'prom-client';

/**
 * The delivery queue as an operator watches it: how many deliveries wait (due now or retrying
 * later) and how long the oldest due one has waited. Read at scrape time, over the partial
 * index on pending rows. A growing wait with receivers up means the worker is stuck.
 */
@Injectable()
export class DeliveryMetrics {
  constructor(@Inject(METRICS_REGISTRY) registry: Registry, database: Database) {
    // Both gauges show one row, read once per scrape.
    const read = scrapeReading(async () => {
      const [row] = await database.query<Array<{ pending: number; due: number; oldest: number }>>(
        `SELECT count(*)::int AS pending, count(*) FILTER (WHERE next_attempt_at <= now())::int AS due,
                coalesce(extract(epoch FROM now() - min(next_attempt_at) FILTER (WHERE next_attempt_at <= now())), 0)::float8 AS oldest
           FROM webhooks.deliveries WHERE state = 'pending'`,
      );
      return row;
    });
    new Gauge({
      name: 'doable_webhook_deliveries_pending',
      help: 'Webhook deliveries waiting, by whether they are due now or retrying later',
      labelNames: ['when'],
      registers: [registry],
      async collect() {
        const row = await read();
        this.set({ when: 'due' }, row?.due ?? Number.NaN);
        this.set({ when: 'later' }, row ? row.pending - row.due : Number.NaN);
      },
    });
    new Gauge({
      name: 'doable_webhook_oldest_due_seconds',
      help: 'How long the oldest due webhook delivery has waited for the worker (0: none due)',
      registers: [registry],
      async collect() {
        this.set((await read())?.oldest ?? Number.NaN);
      },
    });
  }
}
