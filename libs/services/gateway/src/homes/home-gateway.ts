import { gatewayRegistryBucket, type GatewayHome } from '@doable/contracts-common';
import { LOGGER, type Logger } from '@doable/shared-logging';
import { GatewayMembership, natsServers, openKvBucket, TRANSPORT_OPTIONS, type TransportOptions } from '@doable/shared-transport';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { GATEWAY_HOME, GATEWAY_LEASE, GatewayRegistration } from '../registry/gateway-registration';

const REOPEN_PAUSE_MS = 1_000;

/**
 * Which users this gateway is home of (docs/operations/home-gateways.md). A named gateway in a
 * cluster keeps poll answers, and tells push sockets on the users-moved barrier, only for users
 * whose home it is, by the same consistent hash as the balancer and sync, over the gateways in
 * the registry (GatewayMembership). A request for anyone else is still served, only not from
 * memory: nothing then depends on the balancer being configured.
 *
 * An unnamed gateway (or embedded mode's one) is everyone's: it keeps every user's answers and
 * sync tells it of every move, as before homes.
 */
@Injectable()
export class HomeGateway implements OnApplicationBootstrap, OnApplicationShutdown {
  private membership?: GatewayMembership;
  private connection?: NatsConnection;
  private readonly listeners: Array<() => void> = [];
  private closing = false;

  constructor(
    @Inject(GATEWAY_HOME) private readonly home: GatewayHome | undefined,
    @Inject(TRANSPORT_OPTIONS) private readonly transport: TransportOptions,
    @Inject(GATEWAY_LEASE) private readonly leaseMs: number,
    private readonly registration: GatewayRegistration,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Whether users have homes here at all: a named gateway in a cluster. */
  get byHome(): boolean {
    return this.home !== undefined && this.transport.kind === 'nats';
  }

  /**
   * Whether this gateway may keep and give this user's poll answers, for a poll begun at `since`
   * (performance.now()): always without homes; with them, while it is and has been the user's
   * home long enough that sync surely tells it (GatewayMembership.isHome).
   */
  keepsAnswersOf(userId: string, since?: number): boolean {
    if (!this.byHome || !this.home) return true;
    return this.membership?.isHome(this.home, userId, since) ?? false;
  }

  /** Whether this user's push cues come here with the users-moved barrier (else by the users-changed broadcast). */
  hearsMovesOf(userId: string): boolean {
    if (!this.byHome || !this.home) return false;
    return this.membership?.isHome(this.home, userId) ?? false;
  }

  /** How long after a membership change the homes it moved settle (GatewayMembership.settleMs). */
  get settleMs(): number {
    return this.leaseMs;
  }

  /** Told whenever the membership changed, or was lost and found again: homes may have moved. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.byHome || this.transport.kind !== 'nats') return;
    const { url, subjectPrefix, name, replicas = 1 } = this.transport;
    this.connection = await connect({ servers: natsServers(url), name: `${name}-homes`, maxReconnectAttempts: -1, waitOnFirstConnect: true });
    await this.open(subjectPrefix, replicas);
  }

  private async open(subjectPrefix: string, replicas: number): Promise<void> {
    if (!this.connection || this.closing) return;
    try {
      // Whoever comes first makes the bucket, as GatewayRegistration does (with its copies in a NATS cluster).
      const kv = await openKvBucket(this.connection, gatewayRegistryBucket(subjectPrefix), { ttl: this.leaseMs, history: 1, replicas }, this.logger);
      this.membership = await GatewayMembership.open(kv, { leaseMs: this.leaseMs, logger: this.logger, self: this.registration.instanceId }, () => this.reopen(subjectPrefix, replicas));
    } catch (err) {
      this.logger.warn({ err }, 'gateway registry unreadable: no user is at home here until it is read');
      this.reopen(subjectPrefix, replicas);
      return;
    }
    if (!this.membership) {
      this.reopen(subjectPrefix, replicas);
      return;
    }
    this.membership.onChange(() => this.changed());
    this.changed();
  }

  /** A membership whose watch ended knows nothing any more: no one is home until a new one has settled. */
  private reopen(subjectPrefix: string, replicas: number): void {
    this.membership?.stop();
    this.membership = undefined;
    this.changed();
    if (this.closing) return;
    setTimeout(() => void this.open(subjectPrefix, replicas), REOPEN_PAUSE_MS).unref();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    this.membership?.stop();
    await this.connection?.drain().catch(() => this.connection?.close());
  }
}
