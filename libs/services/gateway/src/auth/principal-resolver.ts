import type { Principal } from '@doable/contracts-common';
import { AuthEvents, AuthSubjects, GatewayRevocation, hashToken } from '@doable/contracts-auth';
import { EVENT_BUS, type EventBus, ServiceClient, type Unsubscribe } from '@doable/shared-transport';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { GatewayRegistration } from '../registry/gateway-registration';
import { PrincipalCache } from './principal-cache';
import { PRINCIPAL_CACHE } from './principal-cache.token';

export { PRINCIPAL_CACHE } from './principal-cache.token';

/** Bearer token -> principal, asking auth-oauth (by hash) when the cache does not know it. */
@Injectable()
export class PrincipalResolver implements OnApplicationBootstrap, OnApplicationShutdown {
  private stopListening?: Unsubscribe;

  constructor(
    private readonly services: ServiceClient,
    @Inject(PRINCIPAL_CACHE) private readonly cache: PrincipalCache,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    private readonly registration: GatewayRegistration,
  ) {
    // The cluster's half of the revocation barrier: drop the tokens on this instance's subject.
    registration.answer(GatewayRevocation.gatewayDropSubject, (request) => {
      const parsed = GatewayRevocation.dropTokensRequest.safeParse(request);
      return { dropped: parsed.success ? cache.dropMany(parsed.data.tokenHashes) : 0 };
    });
    registration.onLapse(() => cache.clear());
  }

  async resolve(token: string): Promise<Principal> {
    const tokenHash = hashToken(token);
    // Without a fresh lease (cluster), this gateway may have missed a revocation: ask every time.
    const cacheUsable = this.registration.cacheUsable();
    const cached = cacheUsable ? this.cache.get(tokenHash) : undefined;
    if (cached) return cached;
    const epoch = this.cache.epoch;
    const { expiresAt, ...principal } = await this.services.request(AuthSubjects.verifyToken, { tokenHash });
    // An expiring token is trusted from the cache only until it expires; an answer that a drop
    // overtook (the token may be the one just revoked) is used once and not cached.
    if (cacheUsable) this.cache.set(tokenHash, principal, expiresAt ? Date.parse(expiresAt) : undefined, epoch);
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
