import type { Principal } from '@doable/contracts-common';
import { AuthEvents, AuthSubjects, hashToken } from '@doable/contracts-auth';
import { EVENT_BUS, type EventBus, ServiceClient, type Unsubscribe } from '@doable/shared-transport';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PrincipalCache } from './principal-cache';

export const PRINCIPAL_CACHE = Symbol('PRINCIPAL_CACHE');

/** Bearer token -> principal, asking auth-oauth (by hash) when the cache does not know it. */
@Injectable()
export class PrincipalResolver implements OnApplicationBootstrap, OnApplicationShutdown {
  private stopListening?: Unsubscribe;

  constructor(
    private readonly services: ServiceClient,
    @Inject(PRINCIPAL_CACHE) private readonly cache: PrincipalCache,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
  ) {}

  async resolve(token: string): Promise<Principal> {
    const tokenHash = hashToken(token);
    const cached = this.cache.get(tokenHash);
    if (cached) return cached;
    const { expiresAt, ...principal } = await this.services.request(AuthSubjects.verifyToken, { tokenHash });
    // An expiring token is trusted from the cache only until it expires.
    this.cache.set(tokenHash, principal, expiresAt ? Date.parse(expiresAt) : undefined);
    return principal;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.stopListening = await this.bus.broadcast(AuthEvents.tokenRevoked.name, (envelope) => {
      const parsed = AuthEvents.tokenRevoked.payload.safeParse(envelope.payload);
      if (parsed.success) this.cache.drop(parsed.data.tokenHash);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stopListening?.();
  }
}
