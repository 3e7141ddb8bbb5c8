import { crc32 } from 'node:zlib';

/** Points per `server` of weight 1 (ngx_http_upstream_hash_module: `peer->weight * 160`). */
const POINTS_PER_SERVER = 160;

/**
 * nginx's `hash <key> consistent` (ngx_http_upstream_hash_module.c, ketama-style, compatible
 * with Cache::Memcached::Fast), for servers of weight 1 and none marked down:
 * - each `server` string is split into host and port (the digits after the last `:`; `unix:`
 *   paths have no port), and its base is the CRC-32 state after `host \0 port`;
 * - its 160 points are CRC-32 of that base followed by the previous point's 4 bytes
 *   (little-endian, 0 for the first);
 * - the points are sorted (equal values kept once), and a request goes to the first point at or
 *   after CRC-32 of its key, wrapping to the first.
 * Names are the `server` strings exactly as the upstream block writes them (`10.0.0.11:8080`).
 */
export class NginxRing {
  private readonly points: Uint32Array;
  private readonly owners: string[];

  constructor(names: readonly string[]) {
    const all: Array<{ hash: number; name: string }> = [];
    for (const name of [...new Set(names)].sort()) {
      const base = crc32(serverBytes(name));
      const previous = Buffer.alloc(4);
      for (let point = 0; point < POINTS_PER_SERVER; point++) {
        // zlib's crc32(data, value) continues a finished CRC: the same as nginx's update of the unfinished base.
        const hash = crc32(previous, base);
        all.push({ hash, name });
        previous.writeUInt32LE(hash, 0);
      }
    }
    all.sort((a, b) => a.hash - b.hash || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const kept = all.filter((point, index) => index === 0 || point.hash !== all[index - 1].hash);
    this.points = Uint32Array.from(kept.map((point) => point.hash));
    this.owners = kept.map((point) => point.name);
  }

  /** The server nginx picks for this key (all of them up), or undefined without servers. */
  homeOf(key: string): string | undefined {
    const count = this.points.length;
    if (count === 0) return undefined;
    const hash = crc32(key);
    // ngx_http_upstream_find_chash_point: the first point >= hash; past the end wraps to 0.
    let low = 0;
    let high = count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const value = this.points[middle];
      if (hash > value) low = middle + 1;
      else if (hash < value) high = middle;
      else return this.owners[middle];
    }
    return this.owners[low % count];
  }
}

/** `host \0 port` as nginx hashes a server: the port is the trailing digits after the last `:`. */
function serverBytes(name: string): Buffer {
  let host = name;
  let port = '';
  if (name.length >= 5 && name.slice(0, 5).toLowerCase() === 'unix:') {
    host = name.slice(5);
  } else {
    const match = /:([0-9]*)$/.exec(name);
    if (match) {
      host = name.slice(0, match.index);
      port = match[1];
    }
  }
  return Buffer.concat([Buffer.from(host, 'utf8'), Buffer.from([0]), Buffer.from(port, 'utf8')]);
}
