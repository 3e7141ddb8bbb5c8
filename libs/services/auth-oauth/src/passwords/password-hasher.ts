import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Passwords are stored with scrypt, a memory-hard hash (N=2^15, r=8: 32 MiB per hash), as
 * `scrypt$N$r$p$salt$hash`. Hashing runs off the event loop (libuv pool) and never inside a
 * database transaction.
 */
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAX_MEMORY = 128 * N * R * 2;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N: n, r, p, maxmem: MAX_MEMORY }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

/** False for a wrong password and for a stored value that is not a hash this module could have written. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key, ...rest] = stored.split('$');
  const [cost, blockSize, parallelism] = [Number(n), Number(r), Number(p)];
  const plausible =
    scheme === 'scrypt' &&
    rest.length === 0 &&
    !!salt &&
    !!key &&
    Number.isInteger(cost) &&
    cost > 1 &&
    (cost & (cost - 1)) === 0 &&
    128 * cost * blockSize <= MAX_MEMORY &&
    Number.isInteger(blockSize) &&
    blockSize >= 1 &&
    Number.isInteger(parallelism) &&
    parallelism >= 1 &&
    parallelism <= 16;
  if (!plausible) return false;
  const expected = Buffer.from(key, 'base64');
  try {
    const actual = await derive(password, Buffer.from(salt, 'base64'), cost, blockSize, parallelism);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  } catch {
    return false;
  }
}
