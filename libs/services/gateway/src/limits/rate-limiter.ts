import type { Dialect } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';

/** Request families with their own budget: the Sync API and the REST surfaces. */
export type RateFamily = 'sync' | 'rest';

export interface RateLimits {
  readonly windowMs: number;
  /** Requests per user per window; 0 turns the family's limit off. */
  readonly perFamily: Readonly<Record<RateFamily, number>>;
}

export function familyOf(dialect: Dialect): RateFamily {
  return dialect.startsWith('sync-') ? 'sync' : 'rest';
}

interface Window {
  readonly startedAt: number;
  count: number;
}

/** Sweeping expired windows every this many calls keeps memory bounded by active users. */
const SWEEP_EVERY = 10_000;

/**
 * Per-user request budgets (public limits: 450 REST and 1,000 Sync requests per user per 15
 * minutes), counted in fixed windows in this gateway's memory. Replicas count separately, so
 * with N replicas behind a balancer a user gets up to N times the budget: the limit protects
 * the services from one runaway client; it is not a billing meter.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private calls = 0;

  constructor(
    private readonly limits: RateLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request; throws RATE_LIMITED (429 with Retry-After) once the budget is spent. */
  take(userId: string, family: RateFamily): void {
    const limit = this.limits.perFamily[family];
    if (limit <= 0) return;
    const now = this.now();
    if (++this.calls % SWEEP_EVERY === 0) this.sweep(now);
    const key = `${family}:${userId}`;
    let window = this.windows.get(key);
    if (!window || now - window.startedAt >= this.limits.windowMs) {
      window = { startedAt: now, count: 0 };
      this.windows.set(key, window);
    }
    if (window.count >= limit) {
      const retryAfter = Math.max(1, Math.ceil((window.startedAt + this.limits.windowMs - now) / 1000));
      throw new DomainError('RATE_LIMITED', undefined, { retry_after: retryAfter, limit, window_seconds: Math.round(this.limits.windowMs / 1000) });
    }
    window.count++;
  }

  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (now - window.startedAt >= this.limits.windowMs) this.windows.delete(key);
  }
}
