import type { Principal } from '@doable/contracts-common';

/**
 * Recently verified tokens (by hash) and their principals. Short-lived by design and emptied
 * of a token the moment its revocation event arrives, on every gateway replica.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, { principal: Principal; expiresAt: number }>();

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

  /** Caches for the TTL, or until `notAfter` (epoch ms: the token's own expiry) when that comes first. */
  set(tokenHash: string, principal: Principal, notAfter?: number): void {
    if (this.ttlMs <= 0) return;
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
  }

  get size(): number {
    return this.entries.size;
  }
}
