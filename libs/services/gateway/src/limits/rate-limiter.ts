import type { Dialect } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';

/**
 * Request families with their own budget: the Sync API and the REST surfaces (per user), and
 * the unauthenticated auth routes (per client address: log-in, sign-up, token exchange,
 * revocation, the consent decision), which are where passwords and secrets get guessed.
 */
export type RateFamily = 'sync' | 'rest' | 'auth';

/** The Sync API's generations: each may have a budget of its own besides the family's. */
export const SYNC_GENERATIONS = ['sync-api-v1', 'sync-v9', 'sync-v8', 'sync-v7', 'sync-v6', 'first-generation'] as const satisfies readonly Dialect[];
export type SyncGeneration = (typeof SYNC_GENERATIONS)[number];

/** A budget: requests per key per window; a limit of 0 turns it off. */
export interface Budget {
  readonly limit: number;
  readonly windowMs: number;
}

export interface RateLimits {
  readonly windowMs: number;
  /** Requests per key (user or address) per window; 0 turns the family's limit off. */
  readonly perFamily: Readonly<Record<RateFamily, number>>;
  /** A family's own window, where it differs from `windowMs`. */
  readonly windowMsPerFamily?: Readonly<Partial<Record<RateFamily, number>>>;
  /**
   * A Sync API generation's own budget per user, counted on top of the `sync` family's (which
   * every generation shares): the spec's 50 sync requests per minute for v7 clients.
   */
  readonly perGeneration?: Readonly<Partial<Record<SyncGeneration, Budget>>>;
}

function isSyncGeneration(dialect: Dialect): dialect is SyncGeneration {
  return (SYNC_GENERATIONS as readonly Dialect[]).includes(dialect);
}

/**
 * The key an address is counted under: IPv4 as it is (also when written IPv6-mapped), IPv6 by
 * its /64, since one client usually holds a whole /64 and could otherwise rotate through it.
 */
export function addressKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  const [head, tail = ''] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::') ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

export function familyOf(dialect: Dialect): RateFamily {
  // The first generation's calls were the sync clients of their day: counted with the Sync API.
  return dialect.startsWith('sync-') || dialect === 'first-generation' ? 'sync' : 'rest';
}

/** One key's window. `count` is what this replica admitted; `others` what the shared store says the other replicas did. */
export interface Window {
  readonly startedAt: number;
  count: number;
  others: number;
}

/**
 * Counts shared across gateway replicas (cluster: NATS KV). `add` must not wait: it batches
 * the increment and, when it is flushed, updates the window's `others` from the shared total.
 */
export interface SharedCounts {
  add(slot: string, window: Window): void;
}

/** Sweeping expired windows every this many calls keeps memory bounded by active users. */
const SWEEP_EVERY = 10_000;

/**
 * Per-user request budgets (public limits: 450 REST and 1,000 Sync requests per user per 15
 * minutes), counted in fixed windows. Alone (embedded), in this gateway's memory, each window
 * starting at the key's first request. With shared counts (cluster), windows are aligned to
 * the clock so that every replica counts the same slot, and a request is refused once this
 * replica's count plus the others' (as last read from the shared store) reaches the budget.
 * A Sync API generation may have a budget of its own (v7: 50 a minute), counted besides its
 * family's: a request must fit both.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private calls = 0;
  private shared?: SharedCounts;

  /** Each family's budget, made once: every request on the hot path reads one. */
  private readonly familyBudgets: Readonly<Record<RateFamily, Budget>>;

  constructor(
    private readonly limits: RateLimits,
    private readonly now: () => number = Date.now,
  ) {
    const budget = (family: RateFamily): Budget => ({ limit: limits.perFamily[family], windowMs: limits.windowMsPerFamily?.[family] ?? limits.windowMs });
    this.familyBudgets = { sync: budget('sync'), rest: budget('rest'), auth: budget('auth') };
  }

  /**
   * Counts one request of a user (sync, rest) or a client address (auth); throws RATE_LIMITED
   * (429 with Retry-After) once the budget is spent.
   */
  take(key: string, family: RateFamily): void {
    this.spend(key, [[family, this.budgetOf(family)]]);
  }

  /**
   * Counts one authenticated request on the user's family budget and, on a Sync API generation
   * with a budget of its own, on that one too. Nothing is counted when either is spent: a
   * refused v7 request does not eat into what the user's other clients may still send.
   */
  takeForUser(userId: string, dialect: Dialect): void {
    const family = familyOf(dialect);
    const budgets: [string, Budget][] = [[family, this.budgetOf(family)]];
    const own = isSyncGeneration(dialect) ? this.limits.perGeneration?.[dialect] : undefined;
    if (own && own.limit > 0) budgets.push([dialect, own]);
    this.spend(userId, budgets);
  }

  /**
   * Checks every budget, then counts on all of them; or, when any is spent, counts on none and
   * throws RATE_LIMITED for the one that frees up last (its Retry-After is the honest wait).
   */
  private spend(key: string, budgets: readonly (readonly [string, Budget])[]): void {
    const live = budgets.filter(([, budget]) => budget.limit > 0);
    if (live.length === 0) return;
    const now = this.now();
    if (++this.calls % SWEEP_EVERY === 0) this.sweep(now);
    let refusal: { retryAfter: number; budget: Budget } | undefined;
    const windows = live.map(([name, budget]) => {
      const slot = `${name}:${key}`;
      let window = this.windows.get(slot);
      if (!window || now - window.startedAt >= budget.windowMs) {
        window = { startedAt: this.shared ? now - (now % budget.windowMs) : now, count: 0, others: 0 };
        this.windows.set(slot, window);
      }
      if (window.count + window.others >= budget.limit) {
        const retryAfter = Math.max(1, Math.ceil((window.startedAt + budget.windowMs - now) / 1000));
        if (!refusal || retryAfter > refusal.retryAfter) refusal = { retryAfter, budget };
      }
      return [slot, window] as const;
    });
    if (refusal) {
      const { retryAfter, budget } = refusal;
      throw new DomainError('RATE_LIMITED', undefined, { retry_after: retryAfter, limit: budget.limit, window_seconds: Math.round(budget.windowMs / 1000) });
    }
    for (const [slot, window] of windows) {
      window.count++;
      this.shared?.add(`${slot}:${window.startedAt}`, window);
    }
  }

  /** From now on, counts are shared with the other replicas (set once, at start-up, in a cluster). */
  shareCounts(shared: SharedCounts): void {
    this.shared = shared;
    this.windows.clear();
  }

  /** Counts one unauthenticated auth request from this client address. */
  takeForAddress(address: string | undefined): void {
    this.take(addressKey(address), 'auth');
  }

  private budgetOf(family: RateFamily): Budget {
    return this.familyBudgets[family];
  }

  /** The window of a slot's budget: a family's, or a generation's own. */
  private windowOf(name: string): number {
    if (name === 'sync' || name === 'rest' || name === 'auth') return this.budgetOf(name).windowMs;
    return this.limits.perGeneration?.[name as SyncGeneration]?.windowMs ?? this.limits.windowMs;
  }

  get size(): number {
    return this.windows.size;
  }

  private sweep(now: number): void {
    for (const [slot, window] of this.windows) {
      if (now - window.startedAt >= this.windowOf(slot.slice(0, slot.indexOf(':')))) this.windows.delete(slot);
    }
  }
}
