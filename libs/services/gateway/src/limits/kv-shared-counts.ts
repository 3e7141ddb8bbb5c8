import type { Logger } from '@doable/shared-logging';
import type { KV } from '@nats-io/kv';
import type { SharedCounts, Window } from './rate-limiter';

/** How often batched increments are written (and the others' totals read back). */
export const FLUSH_INTERVAL_MS = 100;
const MAX_CAS_ATTEMPTS = 5;

interface Pending {
  readonly window: Window;
  /** This replica's increments not yet written. */
  amount: number;
}

/**
 * Rate-limit counts shared through NATS KV, one key per (family, user or address, window
 * slot), holding the total of all replicas. A request never waits for the store: increments
 * are batched and written every FLUSH_INTERVAL_MS by compare-and-set, and each write reads
 * back the total, from which the window learns how many the other replicas admitted.
 *
 * Overshoot: a replica decides on the total it last read back, which it refreshes only when it
 * writes (at most one flush interval after admitting a request). So each replica can admit,
 * on a stale total, what reaches it within one flush interval (plus a round trip) of the
 * budget being spent elsewhere: with N replicas and a user sending r requests/s, the overshoot
 * is at most about N x r x (FLUSH_INTERVAL_MS + RTT), e.g. 2 replicas, 50 req/s: ~10 requests.
 *
 * Fails open: when the store is unreachable, the increments are dropped and each replica keeps
 * enforcing the budget on its own count (N replicas then allow up to N times the budget).
 * An outage of the store never refuses a request and never takes the API down.
 */
export class KvSharedCounts implements SharedCounts {
  private readonly pending = new Map<string, Pending>();
  /** This replica's increments already in the store, per window (forgotten with the window). */
  private readonly written = new WeakMap<Window, number>();
  private timer?: NodeJS.Timeout;
  private flushing = false;
  private lastWarning = 0;

  constructor(
    private readonly store: KV,
    private readonly logger: Logger,
  ) {}

  add(slot: string, window: Window): void {
    const entry = this.pending.get(slot);
    if (entry && entry.window === window) entry.amount++;
    else this.pending.set(slot, { window, amount: 1 });
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS);
  }

  /** Writes every batched increment; resolves when done (tests and shutdown await it). */
  async flush(): Promise<void> {
    this.timer = undefined;
    if (this.flushing) return;
    this.flushing = true;
    try {
      const batch = [...this.pending].filter(([, entry]) => entry.amount > 0);
      await Promise.all(batch.map(([slot, entry]) => this.write(slot, entry)));
      // A slot done with (no increment since) is forgotten; its key lapses with the bucket's TTL.
      for (const [slot, entry] of batch) if (entry.amount === 0) this.pending.delete(slot);
    } finally {
      this.flushing = false;
      if ([...this.pending.values()].some((entry) => entry.amount > 0)) this.timer ??= setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS);
    }
  }

  private async write(slot: string, entry: Pending): Promise<void> {
    const amount = entry.amount;
    entry.amount = 0;
    const key = storeKey(slot);
    try {
      for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
        const current = await this.store.get(key);
        const total = (current && current.operation === 'PUT' ? Number(current.string()) || 0 : 0) + amount;
        const written = await (current ? this.store.update(key, String(total), current.revision) : this.store.create(key, String(total))).then(
          () => true,
          () => false,
        );
        if (!written) continue;
        const own = (this.written.get(entry.window) ?? 0) + amount;
        this.written.set(entry.window, own);
        entry.window.others = Math.max(0, total - own);
        return;
      }
      throw new Error('compare-and-set kept losing');
    } catch (err) {
      // Fail open: this replica's own count still holds the budget.
      if (Date.now() - this.lastWarning > 60_000) {
        this.lastWarning = Date.now();
        this.logger.warn({ err }, 'shared rate-limit counts unavailable; each gateway counts alone meanwhile');
      }
    }
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}

/** KV keys allow `[-/_=.a-zA-Z0-9]`: family and slot start as they are, the user id or address (IPv6 has `:`) as hex. */
function storeKey(slot: string): string {
  const [family, key, startedAt] = [slot.slice(0, slot.indexOf(':')), slot.slice(slot.indexOf(':') + 1, slot.lastIndexOf(':')), slot.slice(slot.lastIndexOf(':') + 1)];
  return `${family}.${startedAt}.${Buffer.from(key).toString('hex')}`;
}
