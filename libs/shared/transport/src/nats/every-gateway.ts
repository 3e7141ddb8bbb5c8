import { gatewayRegistryBucket, gatewayRegistryKey } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import type { Logger } from '@doable/shared-logging';
import { Kvm, type KV } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { GatewayMembership } from './gateway-membership';
import { natsServers } from './nats-servers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long one request may take before the gateway is asked again (or found gone). */
const REQUEST_TIMEOUT_MS = 1_000;
const RETRY_PAUSE_MS = 50;

export interface EveryGatewayOptions {
  readonly url: string;
  readonly subjectPrefix: string;
  /** The connection's name at the server (`<service>-<purpose>`). */
  readonly connectionName: string;
  readonly leaseMs: number;
  readonly logger: Logger;
  /** Connection attempt bound (the CLI should not hang on an unreachable NATS). */
  readonly connectTimeoutMs?: number;
}

interface Registry {
  readonly connection: NatsConnection;
  readonly kv: KV;
  /** Who is registered, from a watch of the bucket; a lapsed lease is found when one fails to answer. */
  readonly membership: GatewayMembership;
}

/**
 * A message to gateway replicas registered in the gateway registry (contracts-common
 * gateway-registry.ts), each on its own subject, returning once each has answered or its
 * registration has lapsed: to every one (`ask`), or to the home gateways of some users
 * (`askHomes`, docs/operations/home-gateways.md). A lost answer is asked again. Who is
 * registered is kept from a watch of the bucket (GatewayMembership), so a call costs one request
 * per gateway asked and no registry read; a gateway that does not answer is looked up to tell a
 * slow one from one that is gone. Waits up to two leases for a live gateway, then fails with
 * SERVICE_UNAVAILABLE (so does an unreachable NATS).
 */
export class EveryGateway {
  private connecting?: Promise<NatsConnection>;
  private opening?: Promise<Registry | undefined>;
  /** The membership last opened, stopped on close. */
  private current?: GatewayMembership;
  private closing = false;

  constructor(private readonly options: EveryGatewayOptions) {}

  async ask(subjectOf: (instanceId: string) => string, payload: string): Promise<void> {
    const registry = await this.registry();
    if (!registry) return;
    await this.readIfStale(registry);
    await this.askEach(registry, subjectOf, new Map(registry.membership.live().map((instance) => [instance, payload])));
  }

  /**
   * Tells each of these users' home gateways, once each with its own users (`payloadOf`), and
   * every gateway without a home with all of them: one request per gateway that may hold
   * something of theirs, not one per gateway.
   */
  async askHomes(subjectOf: (instanceId: string) => string, userIds: readonly string[], payloadOf: (userIds: readonly string[]) => string): Promise<void> {
    const registry = await this.registry();
    if (!registry) return;
    await this.readIfStale(registry);
    const payloads = new Map<string, string>();
    for (const [instance, theirs] of registry.membership.targets(userIds)) payloads.set(instance, payloadOf(theirs));
    await this.askEach(registry, subjectOf, payloads);
  }

  /** A view the watch has not refreshed lately is read from the registry first (GatewayMembership.fresh). */
  private async readIfStale(registry: Registry): Promise<void> {
    if (registry.membership.fresh()) return;
    await registry.membership.relist().catch(() => {
      throw new DomainError('SERVICE_UNAVAILABLE', 'The gateway registry is unreachable');
    });
  }

  private async askEach(registry: Registry, subjectOf: (instanceId: string) => string, payloads: ReadonlyMap<string, string>): Promise<void> {
    const deadline = performance.now() + 2 * this.options.leaseMs + REQUEST_TIMEOUT_MS;
    let pending = new Set(payloads.keys());
    while (pending.size > 0) {
      const answered = await Promise.all(
        [...pending].map((instance) =>
          registry.connection
            .request(subjectOf(instance), payloads.get(instance), { timeout: REQUEST_TIMEOUT_MS })
            .then(() => instance)
            .catch(() => undefined),
        ),
      );
      for (const instance of answered) if (instance !== undefined) pending.delete(instance);
      if (pending.size === 0) return;
      // Who did not answer is still waited for only while registered: a lapsed lease means caches no longer trusted.
      pending = await this.stillRegistered(registry, pending);
      if (pending.size > 0 && performance.now() > deadline) {
        this.options.logger.error({ gateways: [...pending] }, 'live gateways did not answer');
        throw new DomainError('SERVICE_UNAVAILABLE', 'A gateway did not confirm', { gateways: pending.size });
      }
      if (pending.size > 0) await sleep(RETRY_PAUSE_MS);
    }
  }

  private async stillRegistered(registry: Registry, instances: ReadonlySet<string>): Promise<Set<string>> {
    const live = new Set<string>();
    for (const instance of instances) {
      const entry = await registry.kv.get(gatewayRegistryKey(instance)).catch(() => {
        throw new DomainError('SERVICE_UNAVAILABLE', 'The gateway registry is unreachable');
      });
      if (entry && entry.operation === 'PUT') live.add(instance);
      else registry.membership.remove(instance);
    }
    return live;
  }

  /** The registry, watched; undefined while no gateway has ever created it (then none holds a cache). */
  private registry(): Promise<Registry | undefined> {
    this.opening ??= this.open().then(
      (registry) => {
        // No bucket yet: looked for again next time (one request), as a gateway may have created it since.
        if (!registry) this.opening = undefined;
        return registry;
      },
      (err: unknown) => {
        this.opening = undefined;
        throw err instanceof DomainError ? err : new DomainError('SERVICE_UNAVAILABLE', `NATS is unreachable: ${(err as Error).message}`);
      },
    );
    return this.opening;
  }

  /** One connection for the life of this object (it reconnects by itself). */
  private connection(): Promise<NatsConnection> {
    this.connecting ??= connect({ servers: natsServers(this.options.url), name: this.options.connectionName, maxReconnectAttempts: -1, timeout: this.options.connectTimeoutMs ?? 5_000 }).catch(
      (err: unknown) => {
        this.connecting = undefined;
        throw err;
      },
    );
    return this.connecting;
  }

  private async open(): Promise<Registry | undefined> {
    const connection = await this.connection();
    // Binds without checking that the bucket exists: the membership's watch and listing tell a missing one apart.
    const kv = await new Kvm(connection).open(gatewayRegistryBucket(this.options.subjectPrefix));
    let membership: GatewayMembership | undefined;
    try {
      membership = await GatewayMembership.open(kv, { leaseMs: this.options.leaseMs, logger: this.options.logger }, () => {
        // A watch that ended would leave the membership blind to new gateways: the next call watches afresh.
        if (!this.closing) this.opening = undefined;
      });
    } catch {
      throw new DomainError('SERVICE_UNAVAILABLE', 'The gateway registry is unreachable');
    }
    if (!membership) return undefined;
    this.current = membership;
    return { connection, kv, membership };
  }

  async close(): Promise<void> {
    this.closing = true;
    this.current?.stop();
    const connection = await this.connecting?.catch(() => undefined);
    await connection?.drain().catch(() => connection.close());
  }
}
