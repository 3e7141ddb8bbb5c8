import { xxhash64 } from './xxhash64';

describe('xxhash64', () => {
  it('gives the reference XXH64 values (seed 0), below and above the 32-byte stripe', () => {
    expect(xxhash64('').toString(16)).toBe('ef46db3751d8e999');
    expect(xxhash64('a').toString(16)).toBe('d24ec4f1a98c6e5b');
    expect(xxhash64('abc').toString(16)).toBe('44bc2cf5ad770999');
    // python-xxhash's README example: 39 bytes, one 32-byte stripe and a tail of 4 + 3.
    expect(xxhash64('Nobody inspects the spammish repetition').toString(16)).toBe('fbcea83c8a378bf1');
  });

  it('hashes a string as its UTF-8 bytes', () => {
    expect(xxhash64('ünïcode')).toBe(xxhash64(Buffer.from('ünïcode', 'utf8')));
  });
});
