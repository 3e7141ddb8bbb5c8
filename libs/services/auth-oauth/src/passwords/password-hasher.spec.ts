import { hashPassword, verifyPassword } from './password-hasher';

// Real scrypt (CPU only, ~32 MiB each): the hashes are made once and shared.
const PASSWORD = 'correct horse battery caf\u00e9';

describe('password hasher', () => {
  let first: string;
  let second: string;

  beforeAll(async () => {
    [first, second] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSWORD)]);
  });

  it('stores scrypt$N$r$p$salt$hash with the documented parameters', () => {
    const [scheme, n, r, p, salt, key] = first.split('$');
    expect([scheme, n, r, p]).toEqual(['scrypt', '32768', '8', '1']);
    expect(Buffer.from(salt, 'base64')).toHaveLength(16);
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
  });

  it('salts each hash differently, even for the same password', () => {
    expect(first).not.toBe(second);
    expect(first.split('$')[4]).not.toBe(second.split('$')[4]);
  });

  it('does not contain the password', () => {
    expect(first).not.toContain(PASSWORD);
  });

  it('verifies the right password against either hash', async () => {
    await expect(verifyPassword(PASSWORD, first)).resolves.toBe(true);
    await expect(verifyPassword(PASSWORD, second)).resolves.toBe(true);
  });

  it('verifies the same password typed in another Unicode form (NFKC)', async () => {
    await expect(verifyPassword('correct horse battery cafe\u0301', first)).resolves.toBe(true);
  });

  it('rejects a wrong password', async () => {
    await expect(verifyPassword('correct horse battery cafe', first)).resolves.toBe(false);
  });

  it.each([
    ['an empty string', ''],
    ['a bare string', 'not-a-hash'],
    ['another scheme', 'bcrypt$32768$8$1$c2FsdHNhbHRzYWx0c2FsdA==$a2V5'],
    ['no key', 'scrypt$32768$8$1$c2FsdHNhbHRzYWx0c2FsdA=='],
    ['an empty salt and key', 'scrypt$32768$8$1$$'],
    ['empty r and p and a short key', 'scrypt$32768$$$c2FsdHNhbHRzYWx0c2FsdA==$a2V5'],
  ])('answers false for a stored hash with %s', async (_label, stored) => {
    await expect(verifyPassword(PASSWORD, stored)).resolves.toBe(false);
  });

  it('answers false when the stored key has the wrong length', async () => {
    const [scheme, n, r, p, salt] = first.split('$');
    await expect(verifyPassword(PASSWORD, [scheme, n, r, p, salt, 'AAAA'].join('$'))).resolves.toBe(false);
  });
});

describe('verifyPassword with corrupt stored hashes', () => {
  it.each([
    ['a non-numeric cost', 'scrypt$abc$8$1$c2FsdA==$a2V5'],
    ['a cost that is not a power of two', 'scrypt$3$8$1$c2FsdA==$a2V5'],
    ['a cost beyond the memory limit', 'scrypt$1048576$8$1$c2FsdA==$a2V5'],
    ['extra fields', 'scrypt$16384$8$1$c2FsdA==$a2V5$more'],
  ])('answers false (not an error) for %s', async (_case, stored) => {
    await expect(verifyPassword('whatever', stored)).resolves.toBe(false);
  });
});
