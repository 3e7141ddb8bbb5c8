import { randomBytes } from 'node:crypto';
import { type GatewayHome, gatewayRegistryBucket, gatewayRegistryKey, type GatewayRegistration as RegistryValue } from '@doable/contracts-common';
import { LOGGER, type Logger } from '@doable/shared-logging';
import { natsServers, openKvBucket, TRANSPORT_OPTIONS, type TransportOptions } from '@doable/shared-transport';
import type { KV } from '@nats-io/kv';
import { connect, type NatsConnection, type Status } from '@nats-io/transport-node';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';

export const GATEWAY_LEASE = Symbol('GATEWAY_LEASE');
/** This gateway's home in the balancer's hash, declared in its registration (homes/home-gateway.ts); undefined: none. */
export const GATEWAY_HOME = Symbol('GATEWAY_HOME');

/** One barrier this gateway answers: a subject of its own, and what to do with the request's JSON. */
interface InstanceAnswer {
  readonly subjectOf: (subjectPrefix: string, instanceId: string) => string;
  /** Given the parsed JSON (undefined when it was not JSON); returns the reply, sent as JSON. */
  readonly handle: (request: unknown) => unknown;
}

/**
 * This gateway's half of the barriers other services raise before they answer (contracts-common
 * gateway-registry.ts), in a cluster. The caches that need one register here (`answer`,
 * `onLapse`): the principal cache (the revocation barrier: drop these tokens) and the poll
 * answers (the users-moved barrier: forget these users' "nothing new"). It answers each on a
 * subject of its own, and holds a lease in the registry bucket, refreshed every quarter of the
 * lease. The caches are trusted only while the lease is fresh: a gateway cut off from NATS (which
 * could miss a barrier) stops answering from them before its registration lapses, and starts
 * again with them empty. A barrier can also be missed while the lease is still fresh: the
 * connection dropped (a NATS server killed or restarted) or a subscription fell behind and the
 * client dropped messages. Then nothing cached is trusted from that moment (`mayHaveMissed`),
 * not from when the lease runs out: while the registry has no leader (4-9 s after a NATS node
 * crashes) a service cannot even look this gateway up to learn it missed one. The hot path pays
 * one clock read for this, never a round trip.
 *
 * Embedded mode has one gateway in the process, reached by in-process requests instead.
 */
@Injectable()
export class GatewayRegistration implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly instanceId = randomBytes(8).toString('hex');
  private connection?: NatsConnection;
  private registry?: KV;
  private timer?: NodeJS.Timeout;
  /** performance.now() when the last refresh that succeeded was sent; -Infinity: never. */
  private leasedAt = Number.NEGATIVE_INFINITY;
  /** performance.now() when this gateway last may have missed a barrier (watchConnection). */
  private missedAt = Number.NEGATIVE_INFINITY;
  /** performance.now() when the lease last became usable after it was not. */
  private usableSince = Number.POSITIVE_INFINITY;
  private closing = false;
  private readonly answers: InstanceAnswer[] = [];
  private readonly lapses: Array<() => void> = [];

  constructor(
    @Inject(TRANSPORT_OPTIONS) private readonly transport: TransportOptions,
    @Inject(GATEWAY_LEASE) private readonly leaseMs: number,
    @Inject(GATEWAY_HOME) private readonly home: GatewayHome | undefined,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Answers a barrier on a subject of this instance (registered before the application boots). */
  answer(subjectOf: InstanceAnswer['subjectOf'], handle: InstanceAnswer['handle']): void {
    this.answers.push({ subjectOf, handle });
  }

  /** Called when this gateway is back after a lapse, so may have missed a barrier: its cache must forget. */
  onLapse(forget: () => void): void {
    this.lapses.push(forget);
  }

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
    const { url, subjectPrefix, name, replicas = 1 } = this.transport;
    this.connection = await connect({ servers: natsServers(url), name: `${name}-revocations`, maxReconnectAttempts: -1, waitOnFirstConnect: true });
    for (const { subjectOf, handle } of this.answers) {
      this.connection.subscribe(subjectOf(subjectPrefix, this.instanceId), {
        callback: (err, message) => {
          if (err) return;
          message.respond(JSON.stringify(handle(safeJson(message.string()))));
        },
      });
    }
    void this.watchConnection(this.connection);
    // The subscriptions are live at the server before any service can find this gateway.
    await this.connection.flush();
    this.registry = await openKvBucket(this.connection, gatewayRegistryBucket(subjectPrefix), { ttl: this.leaseMs, history: 1, replicas }, this.logger);
    await this.refresh();
    this.timer = setInterval(() => void this.refresh(), Math.max(50, Math.floor(this.leaseMs / 4)));
  }

  private async refresh(): Promise<void> {
    if (!this.registry || this.closing) return;
    const sentAt = performance.now();
    try {
      const value: RegistryValue = { since: new Date().toISOString(), ...(this.home ? { home: this.home } : {}) };
      await this.registry.put(gatewayRegistryKey(this.instanceId), JSON.stringify(value));
      // Sent before a barrier may have been missed: it proves nothing about what came after.
      if (sentAt <= this.missedAt) return;
      // Back after a lapse: barriers may have been missed meanwhile, so nothing cached is kept.
      if (!this.cacheUsable()) {
        for (const forget of this.lapses) forget();
        this.usableSince = performance.now();
      }
      this.leasedAt = sentAt;
    } catch (err) {
      this.logger.warn({ err }, 'gateway lease refresh failed; cached tokens are not trusted until it succeeds');
    }
  }

  /**
   * The connection's events that can lose a barrier request addressed to this gateway: a
   * dropped socket (requests sent meanwhile are gone; core NATS keeps nothing for an absent
   * subscriber), a connection found stale, or messages dropped for a slow subscription. The
   * lease is renewed as soon as the connection is back, so the wait is one refresh and the
   * quarter-lease pause of pollAnswersUsable, not a lease.
   */
  private async watchConnection(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (lostMessagesOn(status)) this.mayHaveMissed(status.type);
      else if (status.type === 'reconnect') void this.refresh();
    }
  }

  /** Trusts nothing cached until a refresh succeeds, which then forgets it all (refresh()). */
  private mayHaveMissed(why: string): void {
    this.missedAt = performance.now();
    if (this.closing || this.leasedAt === Number.NEGATIVE_INFINITY) return;
    this.leasedAt = Number.NEGATIVE_INFINITY;
    this.logger.warn({ why }, 'gateway may have missed a barrier; cached tokens and poll answers are not used until its lease is renewed');
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    // Leaving the registry at once spares revokers the wait for this key to lapse.
    await this.registry?.delete(gatewayRegistryKey(this.instanceId)).catch(() => undefined);
    await this.connection?.drain().catch(() => this.connection?.close());
  }
}

/** Whether a connection event may have cost this gateway a message addressed to it. */
export function lostMessagesOn(status: Status): boolean {
  return status.type === 'disconnect' || status.type === 'staleConnection' || status.type === 'slowConsumer';
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
