import { createHash } from 'node:crypto';
import { base64Url, challengeOf, pkcePair, randomToken } from './pkce';

describe('PKCE', () => {
  it('computes S256 as base64url(SHA-256(verifier)), checked against node:crypto', async () => {
    await expect(challengeOf('dBjftJeZ4CVP-mJ92K1cq7fsY1zmcNbs8vGV4kcvEw-_ch8')).resolves.toBe('srzjk34NT_eQRqc7a9sVJtigIkMl7nVcBxoUcCU9f5o');
  });

  it('makes a 43-character unreserved verifier and its challenge, fresh each time', async () => {
    const { verifier, challenge } = await pkcePair();
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge).toBe(createHash('sha256').update(verifier).digest('base64url'));
    expect(randomToken()).not.toBe(randomToken());
  });

  it('encodes base64url without padding', () => {
    expect(base64Url(new Uint8Array([0xfb, 0xff, 0xfe]))).toBe('-__-');
    expect(base64Url(new Uint8Array([1]))).toBe('AQ');
  });
});
