import { GatewayRevocation } from '@doable/contracts-auth';
import { DomainError } from '@doable/shared-errors';
import type { Logger } from '@doable/shared-logging';
import type { ServiceClient } from '@doable/shared-transport';
import { Kvm, type KV } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';

/**
 * What a revoke waits for before it returns: no gateway will accept these tokens any more.
 * See contracts-auth GatewayRevocation for the protocol.
 */
export interface RevocationBarrier {
  revoked(tokenHashes: readonly string[]): Promise<void>;
}

export const REVOCATION_BARRIER = Symbol('REVOCATION_BARRIER');

/** Where no gateway can hold a cache (tests of one service, a CLI with no system to reach). */
export const NO_BARRIER: RevocationBarrier = { revoked: () => Promise.resolve() };

/** Embedded mode: the one gateway is in this process, behind the `dropTokens` request. */
export class InProcessRevocationBarrier implements RevocationBarrier {
  constructor(private readonly services: ServiceClient) {}

  async revoked(tokenHashes: readonly string[]): Promise<void> {
    if (tokenHashes.length === 0) return;
    try {
      await this.services.request(GatewayRevocation.dropTokens, { tokenHashes: [...tokenHashes] });
    } catch (err) {
      // No gateway running (a service started alone): no cache to empty.
      if (!(err instanceof DomainError && err.code === 'SERVICE_UNAVAILABLE')) throw err;
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long one drop request may take before the gateway is asked again (or found gone). */
const DROP_REQUEST_TIMEOUT_MS = 1_000;
const RETRY_PAUSE_MS = 50;

export interface NatsBarrierOptions {
  readonly url: string;
  readonly subjectPrefix: string;
  readonly name: string;
  readonly leaseMs: number;
  readonly logger: Logger;
  /** Connection attempt bound (the CLI should not hang on an unreachable NATS). */
  readonly connectTimeoutMs?: number;
}

/**
 * Cluster: asks every gateway registered in the KV registry to drop the tokens, each on its
 * own subject, and waits until each has answered or its registration has lapsed (a gateway
 * that crashed, or that lost NATS and so stopped trusting its cache). A lost answer is asked
 * again. Costs one request per gateway per revoke; waits up to a lease for a gateway that
 * vanished without leaving the registry. Fails with SERVICE_UNAVAILABLE when NATS is
 * unreachable or a live gateway never answers within two leases (the token is revoked in the
 * database all the same; only the promise that no gateway accepts it could not be kept).
 */
export class NatsRevocationBarrier implements RevocationBarrier {
  private connecting?: Promise<{ connection: NatsConnection; registry: KV }>;

  constructor(private readonly options: NatsBarrierOptions) {}

  async revoked(tokenHashes: readonly string[]): Promise<void> {
    if (tokenHashes.length === 0) return;
    const { connection, registry } = await this.connect();
    const deadline = performance.now() + 2 * this.options.leaseMs + DROP_REQUEST_TIMEOUT_MS;
    const payload = JSON.stringify({ tokenHashes });
    let pending = await this.liveGateways(registry);
    while (pending.size > 0) {
      const answered = await Promise.all(
        [...pending].map((instance) =>
          connection
            .request(GatewayRevocation.gatewayDropSubject(this.options.subjectPrefix, instance), payload, { timeout: DROP_REQUEST_TIMEOUT_MS })
            .then(() => instance)
            .catch(() => undefined),
        ),
      );
      for (const instance of answered) if (instance !== undefined) pending.delete(instance);
      if (pending.size === 0) return;
      // Who did not answer is still waited for only while registered: a lapsed lease means a cache no longer trusted.
      const live = await this.liveGateways(registry);
      pending = new Set([...pending].filter((instance) => live.has(instance)));
      if (pending.size > 0 && performance.now() > deadline) {
        this.options.logger.error({ gateways: [...pending] }, 'revocation not acknowledged by live gateways');
        throw new DomainError('SERVICE_UNAVAILABLE', 'A gateway did not confirm the revocation', { gateways: pending.size });
      }
      if (pending.size > 0) await sleep(RETRY_PAUSE_MS);
    }
  }

  private async liveGateways(registry: KV): Promise<Set<string>> {
    const live = new Set<string>();
    try {
      for await (const key of await registry.keys('gw.>')) {
        const instance = GatewayRevocation.instanceOfRegistryKey(key);
        if (instance) live.add(instance);
      }
    } catch (err) {
      // No registry yet: no gateway has ever started, so none holds a cache. Anything else is not knowing who to ask.
      if (/stream not found/i.test((err as Error).message)) return live;
      throw new DomainError('SERVICE_UNAVAILABLE', 'The gateway registry is unreachable');
    }
    return live;
  }

  private connect(): Promise<{ connection: NatsConnection; registry: KV }> {
    this.connecting ??= (async () => {
      const connection = await connect({ servers: this.options.url, name: `${this.options.name}-revocations`, maxReconnectAttempts: -1, timeout: this.options.connectTimeoutMs ?? 5_000 });
      // Binds without checking that the bucket exists: liveGateways tells a missing one apart.
      const registry = await new Kvm(connection).open(GatewayRevocation.gatewayRegistryBucket(this.options.subjectPrefix));
      return { connection, registry };
    })().catch((err: unknown) => {
      this.connecting = undefined;
      throw new DomainError('SERVICE_UNAVAILABLE', `NATS is unreachable: ${(err as Error).message}`);
    });
    return this.connecting;
  }

  async close(): Promise<void> {
    const current = await this.connecting?.catch(() => undefined);
    await current?.connection.drain().catch(() => current.connection.close());
  }
}
