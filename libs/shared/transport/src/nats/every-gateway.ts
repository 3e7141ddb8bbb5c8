import { gatewayRegistryBucket, gatewayRegistryKey, instanceOfRegistryKey } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import type { Logger } from '@doable/shared-logging';
import { Kvm, type KV } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
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
  /** Gateways seen registering and not seen leaving; a lapsed lease is found when one fails to answer. */
  readonly known: Set<string>;
}

/**
 * One message to every gateway replica registered in the gateway registry (contracts-common
 * gateway-registry.ts), each on its own subject, returning once each has answered or its
 * registration has lapsed. A lost answer is asked again. Who is registered is kept from a watch
 * of the bucket, so a call costs one request per gateway and no registry read; a gateway that
 * does not answer is looked up to tell a slow one from one that is gone. Waits up to two leases
 * for a live gateway, then fails with SERVICE_UNAVAILABLE (so does an unreachable NATS).
 */
export class EveryGateway {
  private connecting?: Promise<NatsConnection>;
  private opening?: Promise<Registry | undefined>;
  private closing = false;

  constructor(private readonly options: EveryGatewayOptions) {}

  async ask(subjectOf: (instanceId: string) => string, payload: string): Promise<void> {
    const registry = await this.registry();
    if (!registry) return;
    const deadline = performance.now() + 2 * this.options.leaseMs + REQUEST_TIMEOUT_MS;
    let pending = new Set(registry.known);
    while (pending.size > 0) {
      const answered = await Promise.all(
        [...pending].map((instance) =>
          registry.connection
            .request(subjectOf(instance), payload, { timeout: REQUEST_TIMEOUT_MS })
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
      else registry.known.delete(instance);
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
    // Binds without checking that the bucket exists: the watch and the listing tell a missing one apart.
    const kv = await new Kvm(connection).open(gatewayRegistryBucket(this.options.subjectPrefix));
    const known = new Set<string>();
    const missing = (err: unknown) => /stream not found/i.test((err as Error).message);
    // The watch starts before the listing, so a gateway registering in between is not missed.
    let watch: Awaited<ReturnType<KV['watch']>>;
    try {
      watch = await kv.watch({ key: 'gw.>' });
    } catch (err) {
      if (missing(err)) return undefined;
      throw new DomainError('SERVICE_UNAVAILABLE', 'The gateway registry is unreachable');
    }
    try {
      for await (const key of await kv.keys('gw.>')) {
        const instance = instanceOfRegistryKey(key);
        if (instance) known.add(instance);
      }
    } catch (err) {
      watch.stop();
      if (missing(err)) return undefined;
      throw new DomainError('SERVICE_UNAVAILABLE', 'The gateway registry is unreachable');
    }
    void (async () => {
      for await (const entry of watch) {
        const instance = instanceOfRegistryKey(entry.key);
        if (!instance) continue;
        if (entry.operation === 'PUT') known.add(instance);
        else known.delete(instance);
      }
    })()
      .catch((err: unknown) => this.options.logger.warn({ err }, 'gateway registry watch failed'))
      .finally(() => {
        // A watch that ended would leave `known` blind to new gateways: the next call watches afresh.
        if (!this.closing) this.opening = undefined;
      });
    return { connection, kv, known };
  }

  async close(): Promise<void> {
    this.closing = true;
    const connection = await this.connecting?.catch(() => undefined);
    await connection?.drain().catch(() => connection.close());
  }
}
