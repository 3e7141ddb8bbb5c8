import type { Principal } from '@doable/contracts-common';

/**
 * Recently verified tokens (by hash) and their principals. Emptied of a token before its
 * revocation call returns (the revocation barrier, see GatewayRegistration), on every replica.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, { principal: Principal; expiresAt: number }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(tokenHash: string): Principal | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry.principal;
  }

  /**
   * Caches for the TTL, or until `notAfter` (epoch ms: the token's own expiry) when that comes
   * first; not at all when a drop happened since `epoch` was read.
   */
  set(tokenHash: string, principal: Principal, notAfter?: number, epoch = this.generation): void {
    if (this.ttlMs <= 0 || epoch !== this.generation) return;
    const expiresAt = Math.min(this.now() + this.ttlMs, notAfter ?? Number.POSITIVE_INFINITY);
    if (expiresAt <= this.now()) return;
    this.entries.delete(tokenHash);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(tokenHash, { principal, expiresAt });
  }

  drop(tokenHash: string): void {
    this.entries.delete(tokenHash);
    this.generation++;
  }

  /** Drops these tokens; answers how many were held. */
  dropMany(tokenHashes: readonly string[]): number {
    let dropped = 0;
    for (const tokenHash of tokenHashes) if (this.entries.delete(tokenHash)) dropped++;
    this.generation++;
    return dropped;
  }

  /** Forgets everything (a lapsed lease: revocations may have been missed). */
  clear(): void {
    this.entries.clear();
    this.generation++;
  }

  /**
   * Changes with every drop. A verification that started before a drop must not be cached
   * after it (it may be the answer for the very token just revoked): the resolver reads the
   * generation before asking auth-oauth and caches the answer only if it has not changed.
   */
  get epoch(): number {
    return this.generation;
  }

  get size(): number {
    return this.entries.size;
  }
}
