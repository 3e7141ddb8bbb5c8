import { randomBytes } from 'node:crypto';
import { GatewayRevocation } from '@doable/contracts-auth';
import { GatewayPolls } from '@doable/contracts-sync';
import { LOGGER, type Logger } from '@doable/shared-logging';
import { TRANSPORT_OPTIONS, type TransportOptions } from '@doable/shared-transport';
import { Kvm, type KV } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { UnchangedAnswers } from '../polls/unchanged-answers';
import { UNCHANGED_ANSWERS } from '../polls/unchanged-answers.token';
import { PrincipalCache } from './principal-cache';
import { PRINCIPAL_CACHE } from './principal-cache.token';

export const GATEWAY_LEASE = Symbol('GATEWAY_LEASE');

/**
 * This gateway's half of the barriers other services raise before they answer (contracts-common
 * gateway-registry.ts), in a cluster: the revocation barrier (contracts-auth GatewayRevocation:
 * drop these tokens) and the users-moved one (contracts-sync gateway-polls.ts: forget these
 * users' "nothing new" answers). It answers both on subjects of its own, and holds a lease in the
 * registry bucket, refreshed every quarter of the lease. Both caches are trusted only while the
 * lease is fresh: a gateway cut off from NATS (which could miss a barrier) stops answering from
 * them before its registration lapses, and starts again with them empty. The hot path pays one
 * clock read for this, never a round trip.
 *
 * Embedded mode has one gateway in the process, reached by the `dropTokens` and `usersMoved`
 * requests instead.
 */
@Injectable()
export class GatewayRegistration implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly instanceId = randomBytes(8).toString('hex');
  private connection?: NatsConnection;
  private registry?: KV;
  private timer?: NodeJS.Timeout;
  /** performance.now() when the last refresh that succeeded was sent; -Infinity: never. */
  private leasedAt = Number.NEGATIVE_INFINITY;
  /** performance.now() when the lease last became usable after it was not. */
  private usableSince = Number.POSITIVE_INFINITY;
  private closing = false;

  constructor(
    @Inject(TRANSPORT_OPTIONS) private readonly transport: TransportOptions,
    @Inject(PRINCIPAL_CACHE) private readonly cache: PrincipalCache,
    @Inject(GATEWAY_LEASE) private readonly leaseMs: number,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(UNCHANGED_ANSWERS) private readonly answers: UnchangedAnswers | null,
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

  /**
   * Whether unchanged poll answers may be given and kept now: the lease is usable, and has been
   * for a quarter lease. That pause covers how long the registration takes to reach the sync
   * replicas' watch of the registry: a poll forwarded before they know this gateway could
   * otherwise bring back an answer made stale by a write they did not tell it about.
   */
  pollAnswersUsable(): boolean {
    if (this.transport.kind === 'in-process') return true;
    return this.cacheUsable() && performance.now() - this.usableSince >= this.leaseMs / 4;
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
    this.connection.subscribe(GatewayPolls.gatewayUsersMovedSubject(subjectPrefix, this.instanceId), {
      callback: (err, message) => {
        if (err) return;
        const parsed = GatewayPolls.usersMovedRequest.safeParse(safeJson(message.string()));
        // A malformed request forgets everything: it was meant to forget someone.
        const forgotten = parsed.success ? (this.answers?.moved(parsed.data.userIds) ?? 0) : this.forgetAllAnswers();
        message.respond(JSON.stringify({ forgotten }));
      },
    });
    // The subscriptions are live at the server before any service can find this gateway.
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
      // Back after a lapse: barriers may have been missed meanwhile, so nothing cached is kept.
      if (!this.cacheUsable()) {
        this.cache.clear();
        this.answers?.clear();
        this.usableSince = performance.now();
      }
      this.leasedAt = sentAt;
    } catch (err) {
      this.logger.warn({ err }, 'gateway lease refresh failed; cached tokens are not trusted until it succeeds');
    }
  }

  private forgetAllAnswers(): number {
    const users = this.answers?.size ?? 0;
    this.answers?.clear();
    return users;
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
