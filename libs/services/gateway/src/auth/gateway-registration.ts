import { randomBytes } from 'node:crypto';
import { GatewayRevocation } from '@doable/contracts-auth';
import { LOGGER, type Logger } from '@doable/shared-logging';
import { TRANSPORT_OPTIONS, type TransportOptions } from '@doable/shared-transport';
import { Kvm, type KV } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PrincipalCache } from './principal-cache';
import { PRINCIPAL_CACHE } from './principal-cache.token';

export const GATEWAY_LEASE = Symbol('GATEWAY_LEASE');

/**
 * This gateway's half of the revocation barrier (contracts-auth GatewayRevocation), in a
 * cluster: it answers drop requests on its own subject, and holds a lease in the registry
 * bucket, refreshed every quarter of the lease. The principal cache is trusted only while the
 * lease is fresh: a gateway cut off from NATS (which could miss a revocation) stops answering
 * from its cache before its registration lapses, and starts again with an empty cache. The
 * hot path pays one clock read for this, never a round trip.
 *
 * Embedded mode has one gateway in the process, reached by the `dropTokens` request instead.
 */
@Injectable()
export class GatewayRegistration implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly instanceId = randomBytes(8).toString('hex');
  private connection?: NatsConnection;
  private registry?: KV;
  private timer?: NodeJS.Timeout;
  /** performance.now() when the last refresh that succeeded was sent; -Infinity: never. */
  private leasedAt = Number.NEGATIVE_INFINITY;
  private closing = false;

  constructor(
    @Inject(TRANSPORT_OPTIONS) private readonly transport: TransportOptions,
    @Inject(PRINCIPAL_CACHE) private readonly cache: PrincipalCache,
    @Inject(GATEWAY_LEASE) private readonly leaseMs: number,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Whether cached principals may be used now. A margin of a quarter lease under the
   * registration's own lifetime: the registry drops the key `leaseMs` after the server received
   * the refresh, later than this gateway stops trusting its cache.
   */
  cacheUsable(): boolean {
    if (this.transport.kind === 'in-process') return true;
    return !this.closing && performance.now() - this.leasedAt < (this.leaseMs * 3) / 4;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.transport.kind !== 'nats') return;
    const { url, subjectPrefix, name } = this.transport;
    this.connection = await connect({ servers: url, name: `${name}-revocations`, maxReconnectAttempts: -1, waitOnFirstConnect: true });
    this.connection.subscribe(GatewayRevocation.gatewayDropSubject(subjectPrefix, this.instanceId), {
      callback: (err, message) => {
        if (err) return;
        const parsed = GatewayRevocation.dropTokensRequest.safeParse(safeJson(message.string()));
        const dropped = parsed.success ? this.cache.dropMany(parsed.data.tokenHashes) : 0;
        message.respond(JSON.stringify({ dropped }));
      },
    });
    // The subscription is live at the server before any revoker can find this gateway.
    await this.connection.flush();
    const kvm = new Kvm(this.connection);
    const bucket = GatewayRevocation.gatewayRegistryBucket(subjectPrefix);
    this.registry = await kvm.create(bucket, { ttl: this.leaseMs, history: 1 }).catch(() => kvm.open(bucket));
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), Math.max(50, Math.floor(this.leaseMs / 4)));
  }

  private async refresh(): Promise<void> {
    if (!this.registry || this.closing) return;
    const sentAt = performance.now();
    try {
      await this.registry.put(GatewayRevocation.gatewayRegistryKey(this.instanceId), JSON.stringify({ since: new Date().toISOString() }));
      // Back after a lapse: revocations may have been missed meanwhile, so nothing cached is kept.
      if (!this.cacheUsable()) this.cache.clear();
      this.leasedAt = sentAt;
    } catch (err) {
      this.logger.warn({ err }, 'gateway lease refresh failed; cached tokens are not trusted until it succeeds');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    // Leaving the registry at once spares revokers the wait for this key to lapse.
    await this.registry?.delete(GatewayRevocation.gatewayRegistryKey(this.instanceId)).catch(() => undefined);
    await this.connection?.drain().catch(() => this.connection?.close());
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
