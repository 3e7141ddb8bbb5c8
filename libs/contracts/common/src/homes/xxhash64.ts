/**
 * XXH64 (https://github.com/Cyan4973/xxHash, the 64-bit variant, seed 0 by default): what Envoy
 * hashes a request's key and its ring's points with (`HashUtil::xxHash64`). BigInt throughout;
 * it runs a few times per poll on 8-byte keys, and once per ring point when a ring is built.
 */
const MASK = (1n << 64n) - 1n;
const PRIME_1 = 0x9e3779b185ebca87n;
const PRIME_2 = 0xc2b2ae3d27d4eb4fn;
const PRIME_3 = 0x165667b19e3779f9n;
const PRIME_4 = 0x85ebca77c2b2ae63n;
const PRIME_5 = 0x27d4eb2f165667c5n;

const rotl = (value: bigint, bits: bigint): bigint => ((value << bits) | (value >> (64n - bits))) & MASK;
const multiply = (a: bigint, b: bigint): bigint => (a * b) & MASK;

function round(accumulator: bigint, lane: bigint): bigint {
  return multiply(rotl((accumulator + multiply(lane, PRIME_2)) & MASK, 31n), PRIME_1);
}

function mergeRound(accumulator: bigint, value: bigint): bigint {
  return (multiply(accumulator ^ round(0n, value), PRIME_1) + PRIME_4) & MASK;
}

/** The 64-bit hash of the bytes (a string is taken as UTF-8), as an unsigned BigInt. */
export function xxhash64(input: string | Uint8Array, seed = 0n): bigint {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const length = bytes.length;
  let offset = 0;
  let hash: bigint;
  if (length >= 32) {
    let v1 = (seed + PRIME_1 + PRIME_2) & MASK;
    let v2 = (seed + PRIME_2) & MASK;
    let v3 = seed & MASK;
    let v4 = (seed - PRIME_1) & MASK;
    while (offset <= length - 32) {
      v1 = round(v1, bytes.readBigUInt64LE(offset));
      v2 = round(v2, bytes.readBigUInt64LE(offset + 8));
      v3 = round(v3, bytes.readBigUInt64LE(offset + 16));
      v4 = round(v4, bytes.readBigUInt64LE(offset + 24));
      offset += 32;
    }
    hash = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & MASK;
    hash = mergeRound(hash, v1);
    hash = mergeRound(hash, v2);
    hash = mergeRound(hash, v3);
    hash = mergeRound(hash, v4);
  } else {
    hash = (seed + PRIME_5) & MASK;
  }
  hash = (hash + BigInt(length)) & MASK;
  while (offset + 8 <= length) {
    hash ^= round(0n, bytes.readBigUInt64LE(offset));
    hash = (multiply(rotl(hash, 27n), PRIME_1) + PRIME_4) & MASK;
    offset += 8;
  }
  if (offset + 4 <= length) {
    hash ^= multiply(BigInt(bytes.readUInt32LE(offset)), PRIME_1);
    hash = (multiply(rotl(hash, 23n), PRIME_2) + PRIME_3) & MASK;
    offset += 4;
  }
  while (offset < length) {
    hash ^= multiply(BigInt(bytes[offset]), PRIME_5);
    hash = multiply(rotl(hash, 11n), PRIME_1);
    offset += 1;
  }
  hash ^= hash >> 33n;
  hash = multiply(hash, PRIME_2);
  hash ^= hash >> 29n;
  hash = multiply(hash, PRIME_3);
  hash ^= hash >> 32n;
  return hash;
}
