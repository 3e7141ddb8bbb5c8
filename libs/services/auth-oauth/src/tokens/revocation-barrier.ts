import { GatewayRevocation } from '@doable/contracts-auth';
import type { Logger } from '@doable/shared-logging';
import { askInProcessGateway, EveryGateway, type ServiceClient } from '@doable/shared-transport';

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
    if (tokenHashes.length > 0) await askInProcessGateway(this.services, GatewayRevocation.dropTokens, { tokenHashes: [...tokenHashes] });
  }
}

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
 * Cluster: asks every gateway registered in the gateway registry to drop the tokens, each on
 * its own subject, and waits until each has answered or its registration has lapsed (a gateway
 * that crashed, or that lost NATS and so stopped trusting its cache): see EveryGateway. Fails
 * with SERVICE_UNAVAILABLE when NATS is unreachable or a live gateway never answers within two
 * leases (the token is revoked in the database all the same; only the promise that no gateway
 * accepts it could not be kept).
 */
export class NatsRevocationBarrier implements RevocationBarrier {
  private readonly gateways: EveryGateway;

  constructor(private readonly options: NatsBarrierOptions) {
    this.gateways = new EveryGateway({ ...options, connectionName: `${options.name}-revocations` });
  }

  async revoked(tokenHashes: readonly string[]): Promise<void> {
    if (tokenHashes.length === 0) return;
    await this.gateways.ask((instance) => GatewayRevocation.gatewayDropSubject(this.options.subjectPrefix, instance), JSON.stringify({ tokenHashes }));
  }

  close(): Promise<void> {
    return this.gateways.close();
  }
}
