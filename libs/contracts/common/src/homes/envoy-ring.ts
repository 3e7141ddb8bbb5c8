import { xxhash64 } from './xxhash64';

/** Envoy's defaults for `ring_hash_lb_config` (minimum_ring_size, maximum_ring_size). */
export const ENVOY_MIN_RING_SIZE = 1024;
export const ENVOY_MAX_RING_SIZE = 8 * 1024 * 1024;

/**
 * Envoy's `RING_HASH` load balancer (ring_hash_lb.cc) with its default XX_HASH function, for
 * endpoints of weight 1 in one locality:
 * - scale = ceil(w * minimum_ring_size) / w with w = 1/N, capped at maximum_ring_size;
 * - walking the hosts with running sums, each gets hashes `xxHash64("<address>_<i>")` while the
 *   sum of hashes made is below the sum of scale * w so far;
 * - the ring is sorted, and a request's hash (xxHash64 of the header value its hash policy
 *   names) picks a point as ketama's `ketama_get_server` does (Envoy's port of it).
 * Names are what Envoy hashes per host: its address (`10.0.0.11:8080`), or its hostname with
 * `use_hostname_for_hashing`. Envoy walks hosts in the order its endpoints came; this walks
 * them sorted. The two differ only when N does not divide the ring size: then float rounding
 * gives some host one hash more, a point that owns about 1/ring-size of the keys, here maybe
 * another host than in Envoy. Such a user's requests still reach one gateway, only not the one
 * the gateways consider home: served correctly, forwarded (docs/operations/home-gateways.md).
 */
export class EnvoyRing {
  private readonly points: BigUint64Array;
  private readonly owners: string[];

  constructor(names: readonly string[], minRingSize = ENVOY_MIN_RING_SIZE, maxRingSize = ENVOY_MAX_RING_SIZE) {
    const hosts = [...new Set(names)].sort();
    const all: Array<{ hash: bigint; name: string }> = [];
    if (hosts.length > 0) {
      // thread_aware_lb_impl.cc normalizeHostWeights: weight * 1.0 / sum, in doubles (as here).
      const weight = 1 / hosts.length;
      const scale = Math.min(Math.ceil(weight * minRingSize) / weight, maxRingSize);
      let current = 0;
      let target = 0;
      for (const name of hosts) {
        target += scale * weight;
        for (let index = 0; current < target; index++, current++) all.push({ hash: xxhash64(`${name}_${index}`), name });
      }
    }
    all.sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
    this.points = BigUint64Array.from(all.map((point) => point.hash));
    this.owners = all.map((point) => point.name);
  }

  /** The host Envoy picks for a request whose hash policy yields xxHash64(key). */
  homeOf(key: string): string | undefined {
    return this.chooseHost(xxhash64(key));
  }

  /** RingHashLoadBalancer::Ring::chooseHost, attempt 0: ketama's search, signed indices and all. */
  private chooseHost(hash: bigint): string | undefined {
    const size = this.points.length;
    if (size === 0) return undefined;
    let low = 0;
    let high = size;
    let middle = 0;
    for (;;) {
      middle = Math.trunc((low + high) / 2);
      if (middle === size) {
        middle = 0;
        break;
      }
      const value = this.points[middle];
      const before = middle === 0 ? 0n : this.points[middle - 1];
      if (hash <= value && hash > before) break;
      if (value < hash) low = middle + 1;
      else high = middle - 1;
      if (low > high) {
        middle = 0;
        break;
      }
    }
    return this.owners[middle];
  }
}
