import { GATEWAY_LEASE_MS } from '@doable/contracts-common';

/**
 * The capacity model (docs/operations/capacity.md): what a deployment needs, from the CPU each kind of
 * request costs each part of the system in a bench run on one machine. Pure arithmetic over a
 * run's figures; capacity-report.ts renders it into docs/operations/capacity.md after a whole-suite run.
 *
 * Prices (CPU ms per request, per part) come from three rows:
 * - a poll the gateway answers itself: S1 cluster (nothing new, the gateway's own answer);
 * - a write and the sync that fetches it: S4 (item_update, then the incremental sync);
 * - a full sync of a large account: S3 (5,000 tasks).
 * S6 (100 clients, a sync a second, every 10th with a write) checks the first two against a
 * measured mix; S13 (replicas) checks the throughput the model predicts for this machine.
 */

export const PARTS = ['gateway', 'sync', 'rest', 'other services', 'nats-server', 'postgres'] as const;
export type Part = (typeof PARTS)[number];
export type Price = Readonly<Record<Part, number>>;

export interface Prices {
  readonly hit: Price;
  readonly writeAndFetch: Price;
  readonly fullSync: Price;
}

/** What the sizing assumes of each online user's client (docs/operations/capacity.md says why). */
export interface ClientBehaviour {
  /** Sync requests per second per online user: the documented limit, 1,000 per 15 minutes (a sync every 0.9 s). */
  readonly syncsPerSecond: number;
  /** Of those, the share carrying a write (S6's: every 10th); each write also makes the user's next poll go to sync. */
  readonly writeShare: number;
  /** Full syncs per user per day (an app start, a new device, a reinstall). */
  readonly fullSyncsPerDay: number;
  /** Online at the same moment, of all users. */
  readonly online: number;
}

/** The documented worst case: every user online, syncing at the limit, one write in ten (S6's mix). */
export const AT_THE_LIMIT: ClientBehaviour = { syncsPerSecond: 1_000 / (15 * 60), writeShare: 0.1, fullSyncsPerDay: 3, online: 1 };

/** Busy share a part is sized for: headroom for bursts, GC pauses and a replica lost. */
export const TARGET_UTILISATION = 0.6;

export function zeroPrice(): Record<Part, number> {
  return Object.fromEntries(PARTS.map((part) => [part, 0])) as Record<Part, number>;
}

/** A price from a bench row's `cpuMsPerRequest.product`, whatever other groups it names. */
export function priceOf(cpu: Readonly<Record<string, number>>): Price {
  const price = zeroPrice();
  for (const part of PARTS) price[part] = cpu[part] ?? 0;
  return price;
}

function add(a: Price, b: Price, weight: number): Record<Part, number> {
  const sum = { ...a };
  for (const part of PARTS) sum[part] += b[part] * weight;
  return sum;
}

/**
 * CPU ms per sync request of a mix: a `writeShare` of requests are a write and its fetch
 * (S4's pair: two requests' worth, counted once here as S6 sends the write with a sync and
 * the fetch is the next poll), the rest of the polls are the gateway's own answers.
 */
export function mixPrice(prices: Prices, writeShare: number): Price {
  return add(add(zeroPrice(), prices.writeAndFetch, writeShare), prices.hit, Math.max(0, 1 - 2 * writeShare));
}

export interface Sizing {
  readonly users: number;
  readonly syncsPerSecond: number;
  readonly writesPerSecond: number;
  readonly fullSyncsPerSecond: number;
  /** Cores busy per part at the load, and cores to provision at TARGET_UTILISATION. */
  readonly busyCores: Price;
  readonly cores: Price;
  /** Gateway replicas (one event loop, so one core, each). */
  readonly gateways: number;
  /**
   * NATS messages per second the users-moved barrier and the push channel cost with home gateways
   * (docs/operations/home-gateways.md): a request and a reply per write, to the writer's home
   * (S16 measures it; a collaborator with another home adds one pair).
   */
  readonly barrierMessagesPerSecond: number;
  /** The barrier before home gateways, for comparison: a request and a reply per write per gateway. */
  readonly everyGatewayBarrierMessagesPerSecond: number;
  /**
   * The gateway registry's refreshes as its watchers receive them: each gateway refreshes four
   * times a lease, and each gateway and each sync replica watches them all. Grows with
   * gateways x (gateways + sync replicas), not with writes.
   */
  readonly registryMessagesPerSecond: number;
}

/** The registry lease (GATEWAY_LEASE_MS, in seconds): gateways refresh four times in it. */
export const LEASE_SECONDS = GATEWAY_LEASE_MS / 1000;

export function size(prices: Prices, users: number, behaviour: ClientBehaviour = AT_THE_LIMIT): Sizing {
  const syncsPerSecond = users * behaviour.online * behaviour.syncsPerSecond;
  const writesPerSecond = syncsPerSecond * behaviour.writeShare;
  const fullSyncsPerSecond = (users * behaviour.fullSyncsPerDay) / 86_400;
  const perSecond = add(add(zeroPrice(), mixPrice(prices, behaviour.writeShare), syncsPerSecond), prices.fullSync, fullSyncsPerSecond);
  const busyCores = zeroPrice();
  const cores = zeroPrice();
  for (const part of PARTS) {
    busyCores[part] = perSecond[part] / 1000;
    cores[part] = Math.ceil(busyCores[part] / TARGET_UTILISATION);
  }
  const gateways = Math.max(1, cores.gateway);
  const watchers = gateways + Math.max(1, cores.sync);
  return {
    users,
    syncsPerSecond,
    writesPerSecond,
    fullSyncsPerSecond,
    busyCores,
    cores,
    gateways,
    barrierMessagesPerSecond: writesPerSecond * 2,
    everyGatewayBarrierMessagesPerSecond: writesPerSecond * gateways * 2,
    registryMessagesPerSecond: (gateways * 4 * watchers) / LEASE_SECONDS,
  };
}

/**
 * Throughput of polls the gateways answer themselves on `cores` shared cores with `gateways`
 * replicas: bounded by the gateways' event loops (one core each) and by the cores every process
 * shares, the load generator's included (it runs on the same machine in the bench).
 */
export function predictedPolls(hit: Price, generatorMsPerRequest: number, gateways: number, cores: number): { perSecond: number; bound: 'gateway event loops' | 'shared cores' } {
  const byGateways = (gateways * 1000) / Math.max(hit.gateway, 1e-6);
  const total = PARTS.reduce((sum, part) => sum + hit[part], 0) + generatorMsPerRequest;
  const byCores = (cores * 1000) / Math.max(total, 1e-6);
  return byGateways < byCores ? { perSecond: byGateways, bound: 'gateway event loops' } : { perSecond: byCores, bound: 'shared cores' };
}
