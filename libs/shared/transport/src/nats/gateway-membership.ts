import { type GatewayHome, gatewayRegistryKey, homeKey, homeOfRegistration, homeRing, type HomeRing, instanceOfRegistryKey } from '@doable/contracts-common';
import type { Logger } from '@doable/shared-logging';
import type { KV } from '@nats-io/kv';

/** Views replaced longer ago than this are forgotten: a forwarded poll older than it is never kept. */
const HISTORY_MS = 120_000;
/** Home keys remembered (a SHA-256 each, asked on every poll of a named gateway); past this many, begun afresh. */
const REMEMBERED_KEYS = 100_000;

export interface GatewayMembershipOptions {
  /** The registry's lease (GATEWAY_LEASE_MS / REVOCATION_LEASE_MS): gateways refresh every quarter of it. */
  readonly leaseMs: number;
  readonly logger: Logger;
  /** A gateway's own instance: its refreshes coming back through the watch show the watch is live. */
  readonly self?: string;
  /** Milliseconds, monotonic (tests pass their own). */
  readonly now?: () => number;
}

interface Member {
  readonly home?: GatewayHome;
  /** When the watch last delivered this gateway's key, or a read found it (confirmedAt). */
  seenAt: number;
  confirmedAt: number;
}

/** One membership, and the rings of the hashes its named gateways declared, over all their names. */
class View {
  readonly rings = new Map<string, HomeRing>();
  readonly byName = new Map<string, string[]>();
  readonly unnamed: string[] = [];

  constructor(readonly homes: ReadonlyMap<string, GatewayHome | undefined>) {
    const names = new Set<string>();
    const hashes = new Map<string, GatewayHome>();
    for (const [instance, home] of homes) {
      if (!home) {
        this.unnamed.push(instance);
        continue;
      }
      names.add(home.name);
      hashes.set(ringId(home), home);
      const sharing = this.byName.get(home.name);
      if (sharing) sharing.push(instance);
      else this.byName.set(home.name, [instance]);
    }
    for (const [id, home] of hashes) this.rings.set(id, homeRing(home.hash, [...names], home.ringSize));
  }

  /** The names that are this key's home under each hash some gateway declared. */
  homeNames(key: string, into: Set<string>): void {
    for (const ring of this.rings.values()) {
      const name = ring.homeOf(key);
      if (name !== undefined) into.add(name);
    }
  }

  homeOf(home: GatewayHome, key: string): string | undefined {
    return this.rings.get(ringId(home))?.homeOf(key);
  }

  sameAs(other: ReadonlyMap<string, GatewayHome | undefined>): boolean {
    if (other.size !== this.homes.size) return false;
    for (const [instance, home] of other) {
      if (!this.homes.has(instance)) return false;
      const mine = this.homes.get(instance);
      if ((mine ? JSON.stringify(mine) : '') !== (home ? JSON.stringify(home) : '')) return false;
    }
    return true;
  }
}

function ringId(home: GatewayHome): string {
  return `${home.hash}/${home.ringSize ?? ''}`;
}

/**
 * Which gateways are live, and which is each user's home (docs/operations/home-gateways.md),
 * from a watch of the gateway registry (contracts-common gateway-registry.ts). Held by sync (to
 * send a users-moved barrier to the moved users' homes only) and by each named gateway (to keep
 * poll answers, and tell push sockets, only for the users it is home of).
 *
 * The two sides see a membership change at slightly different moments, so both keep the views
 * of the last `settleMs` (one lease):
 * - a gateway is a user's home only if it was under every view it held since a lease before the
 *   poll began (a newcomer waits a lease before keeping anyone's answers);
 * - sync tells a user's home under every view it held in the last lease (and everyone, in the
 *   first lease after its watch began, when it knows no past).
 * So as long as a change reaches both within a lease of each other, whichever gateway keeps a
 * user's answer is told. A key that lapsed raises no watch event: a gateway not seen refreshing
 * for a lease is looked up, and leaves the view only once the registry no longer holds it.
 */
export class GatewayMembership {
  readonly settleMs: number;
  private readonly members = new Map<string, Member>();
  private view = new View(new Map());
  private readonly history: Array<{ readonly view: View; readonly until: number }> = [];
  private readonly listeners: Array<() => void> = [];
  private readonly keys = new Map<string, string>();
  private readonly now: () => number;
  private startedAt = Number.POSITIVE_INFINITY;
  /** When the watch last delivered anything, or the registry was last listed. */
  private heardAt = Number.NEGATIVE_INFINITY;
  private sweeper?: NodeJS.Timeout;
  private watch?: Awaited<ReturnType<KV['watch']>>;
  private stopped = false;

  private constructor(
    private readonly kv: KV,
    private readonly options: GatewayMembershipOptions,
  ) {
    this.settleMs = options.leaseMs;
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * Watches the registry; undefined while its bucket does not exist (no gateway ever
   * registered, so none holds a cache). `ended` is called if the watch stops by itself: the
   * owner opens a new membership (which knows no past, so is careful for a lease).
   */
  static async open(kv: KV, options: GatewayMembershipOptions, ended: () => void = () => undefined): Promise<GatewayMembership | undefined> {
    const membership = new GatewayMembership(kv, options);
    return (await membership.start(ended)) ? membership : undefined;
  }

  /** Gateways registered now. */
  live(): string[] {
    return [...this.members.keys()];
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * Whom to tell that these users moved: each user's home under every view of the last lease,
   * and every gateway without a home (they keep every user's answers). Only gateways registered
   * now: one that left the registry trusts nothing it kept.
   */
  targets(userIds: readonly string[]): Map<string, string[]> {
    const targets = new Map<string, string[]>();
    const add = (instance: string, userId: string) => {
      const list = targets.get(instance);
      if (list) list.push(userId);
      else targets.set(instance, [userId]);
    };
    if (this.now() - this.startedAt < this.settleMs) {
      for (const instance of this.members.keys()) targets.set(instance, [...userIds]);
      return targets;
    }
    for (const instance of this.view.unnamed) targets.set(instance, [...userIds]);
    const views = this.viewsSince(this.now() - this.settleMs);
    const names = new Set<string>();
    for (const userId of userIds) {
      names.clear();
      const key = this.keyOf(userId);
      for (const view of views) view.homeNames(key, names);
      for (const name of names) for (const instance of this.view.byName.get(name) ?? []) add(instance, userId);
    }
    return targets;
  }

  /**
   * Whether `home` (a gateway's own) is this user's home now, and was under every view held
   * since a lease before `since` (when the poll began), with the watch live. False while the
   * membership is younger than that: it does not know what sync may still be using.
   */
  isHome(home: GatewayHome, userId: string, since: number = this.now()): boolean {
    const from = since - this.settleMs;
    if (this.startedAt > from || !this.watchLive()) return false;
    const key = this.keyOf(userId);
    for (const view of this.viewsSince(from)) if (view.homeOf(home, key) !== home.name) return false;
    return true;
  }

  /**
   * The watch delivers this gateway's own refreshes (every quarter lease): none for three
   * quarters of a lease (the margin GatewayRegistration gives its own lease) means the watch
   * stalled, and a change may be missing from what this gateway believes.
   */
  watchLive(): boolean {
    if (this.options.self === undefined) return true;
    const self = this.members.get(this.options.self);
    return self !== undefined && this.now() - self.seenAt < (this.options.leaseMs * 3) / 4;
  }

  /**
   * Whether the view can be trusted without reading the registry: something came through the
   * watch (gateways refresh every quarter lease) or the registry was listed within three quarters
   * of a lease. Not: the watch may have stalled and hidden a gateway that joined; `relist` reads
   * the registry, well before such a gateway, waiting a lease, keeps anyone's answers.
   */
  fresh(): boolean {
    return this.now() - this.heardAt < (this.options.leaseMs * 3) / 4;
  }

  /** Reads the registry whole: gateways the watch did not bring are added, ones no longer there leave. */
  async relist(): Promise<void> {
    const listed = new Set<string>();
    for await (const key of await this.kv.keys('gw.>')) {
      const instance = instanceOfRegistryKey(key);
      if (instance) listed.add(instance);
    }
    for (const instance of listed) {
      if (this.members.has(instance)) continue;
      const entry = await this.kv.get(gatewayRegistryKey(instance));
      if (entry && entry.operation === 'PUT' && !this.members.has(instance)) this.put(instance, entry.string());
    }
    for (const instance of [...this.members.keys()]) {
      if (listed.has(instance)) continue;
      const entry = await this.kv.get(gatewayRegistryKey(instance));
      if (!entry || entry.operation !== 'PUT') this.remove(instance);
    }
    this.heardAt = this.now();
  }

  /** A gateway found gone (a read of its key): leaves the view at once. */
  remove(instance: string): void {
    if (this.members.delete(instance)) this.changed();
  }

  stop(): void {
    this.stopped = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.watch?.stop();
  }

  private keyOf(userId: string): string {
    let key = this.keys.get(userId);
    if (key === undefined) {
      if (this.keys.size >= REMEMBERED_KEYS) this.keys.clear();
      key = homeKey(userId);
      this.keys.set(userId, key);
    }
    return key;
  }

  private viewsSince(from: number): View[] {
    const views = [this.view];
    for (const { view, until } of this.history) if (until > from) views.push(view);
    return views;
  }

  private async start(ended: () => void): Promise<boolean> {
    const missing = (err: unknown) => /stream not found/i.test((err as Error).message);
    // The watch starts before the listing, so a gateway registering in between is not missed.
    try {
      this.watch = await this.kv.watch({ key: 'gw.>', include: 'updates' });
    } catch (err) {
      if (missing(err)) return false;
      throw err;
    }
    try {
      for await (const key of await this.kv.keys('gw.>')) {
        const instance = instanceOfRegistryKey(key);
        if (!instance || this.members.has(instance)) continue;
        const entry = await this.kv.get(key);
        if (entry && entry.operation === 'PUT' && !this.members.has(instance)) this.put(instance, entry.string());
      }
    } catch (err) {
      this.watch.stop();
      if (missing(err)) return false;
      throw err;
    }
    this.startedAt = this.now();
    this.heardAt = this.startedAt;
    this.changed();
    const watch = this.watch;
    void (async () => {
      for await (const entry of watch) {
        this.heardAt = this.now();
        const instance = instanceOfRegistryKey(entry.key);
        if (!instance) continue;
        if (entry.operation === 'PUT') this.put(instance, entry.string());
        else if (this.members.delete(instance)) this.changed();
      }
    })()
      .catch((err: unknown) => this.options.logger.warn({ err }, 'gateway registry watch failed'))
      .finally(() => {
        if (this.sweeper) clearInterval(this.sweeper);
        if (!this.stopped) ended();
      });
    // Finer than the lease, so two watchers drop a lapsed gateway within an eighth of a lease of each other.
    this.sweeper = setInterval(() => void this.sweep(), Math.max(25, Math.floor(this.options.leaseMs / 8)));
    this.sweeper.unref();
    return true;
  }

  private put(instance: string, value: string): void {
    const home = homeOfRegistration(value);
    const known = this.members.get(instance);
    if (known && JSON.stringify(known.home ?? null) === JSON.stringify(home ?? null)) {
      known.seenAt = this.now();
      return;
    }
    this.members.set(instance, { home, seenAt: this.now(), confirmedAt: Number.NEGATIVE_INFINITY });
    this.changed();
  }

  /** Gateways not seen for a lease: their key may have lapsed (no event says so); the registry decides. */
  private async sweep(): Promise<void> {
    const now = this.now();
    for (const [instance, member] of [...this.members]) {
      if (now - Math.max(member.seenAt, member.confirmedAt) <= this.options.leaseMs) continue;
      try {
        const entry = await this.kv.get(gatewayRegistryKey(instance));
        if (entry && entry.operation === 'PUT') member.confirmedAt = this.now();
        else this.remove(instance);
      } catch {
        // Unreadable now: kept (a gateway wrongly kept only costs a request to it; one wrongly dropped, a stale answer).
      }
    }
  }

  private changed(): void {
    const homes = new Map<string, GatewayHome | undefined>([...this.members].map(([instance, member]) => [instance, member.home]));
    if (this.view.sameAs(homes)) return;
    const now = this.now();
    this.history.unshift({ view: this.view, until: now });
    while (this.history.length > 0 && this.history[this.history.length - 1].until < now - HISTORY_MS) this.history.pop();
    this.view = new View(homes);
    for (const listener of this.listeners) listener();
  }
}
