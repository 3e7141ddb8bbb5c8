import { LOGGER, type Logger } from '@doable/shared-logging';
import { natsServers, openKvBucket, TRANSPORT_OPTIONS, type TransportOptions } from '@doable/shared-transport';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { KvSharedCounts } from './kv-shared-counts';
import { RateLimiter } from './rate-limiter';

export const LONGEST_RATE_WINDOW = Symbol('LONGEST_RATE_WINDOW');

/**
 * In a cluster, the gateway replicas count rate limits together in a NATS KV bucket (keys lapse
 * with the bucket's TTL, two of the longest windows). Embedded mode has one gateway: its memory.
 * Should the bucket be unreachable at start, the gateway starts anyway and counts alone.
 */
@Injectable()
export class SharedRateCounts implements OnApplicationBootstrap, OnApplicationShutdown {
  private connection?: NatsConnection;
  private counts?: KvSharedCounts;

  constructor(
    @Inject(TRANSPORT_OPTIONS) private readonly transport: TransportOptions,
    private readonly limiter: RateLimiter,
    @Inject(LONGEST_RATE_WINDOW) private readonly longestWindowMs: number,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.transport.kind !== 'nats') return;
    const { url, subjectPrefix, name, replicas = 1 } = this.transport;
    try {
      this.connection = await connect({ servers: natsServers(url), name: `${name}-rate-limits`, maxReconnectAttempts: -1, waitOnFirstConnect: true });
      const bucket = `${subjectPrefix.replace(/[^A-Za-z0-9_-]/g, '_')}rate_limits`;
      const store = await openKvBucket(this.connection, bucket, { ttl: 2 * this.longestWindowMs, history: 1, replicas }, this.logger);
      this.counts = new KvSharedCounts(store, this.logger);
      this.limiter.shareCounts(this.counts);
    } catch (err) {
      this.logger.warn({ err }, 'shared rate-limit counts unavailable at start; this gateway counts alone');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.counts?.close();
    await this.connection?.drain().catch(() => this.connection?.close());
  }
}
