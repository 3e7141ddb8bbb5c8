import type { Principal } from '@doable/contracts-common';
import { PrincipalCache } from './principal-cache';

function principal(userId: string): Principal {
  return { userId, scopes: ['data:read_write'], appId: null, tokenKind: 'personal' };
}

/** A hand-driven clock: the cache reads it through the injected `now`. */
function clock(start = 1_000_000) {
  let time = start;
  return {
    now: () => time,
    advance: (ms: number) => {
      time += ms;
    },
  };
}

describe('PrincipalCache', () => {
  it('returns a principal it holds', () => {
    const cache = new PrincipalCache(60_000);
    cache.set('hash-a', principal('1'));
    expect(cache.get('hash-a')).toEqual(principal('1'));
    expect(cache.size).toBe(1);
  });

  it("forgets an expiring token at the token's own expiry when that comes before the ttl", () => {
    const time = clock();
    const cache = new PrincipalCache(60_000, 10, time.now);
    cache.set('hash-a', principal('1'), time.now() + 500);
    time.advance(499);
    expect(cache.get('hash-a')).toEqual(principal('1'));
    time.advance(1);
    expect(cache.get('hash-a')).toBeUndefined();
    cache.set('hash-b', principal('2'), time.now() - 1);
    expect(cache.get('hash-b')).toBeUndefined();
    cache.set('hash-c', principal('3'), time.now() + 120_000);
    time.advance(60_000);
    expect(cache.get('hash-c')).toBeUndefined();
  });

  it('returns undefined for a token it never saw', () => {
    const cache = new PrincipalCache(60_000);
    cache.set('hash-a', principal('1'));
    expect(cache.get('hash-b')).toBeUndefined();
  });

  it('keeps an entry until just before its ttl and forgets it at the ttl', () => {
    const time = clock();
    const cache = new PrincipalCache(1_000, 10, time.now);
    cache.set('hash-a', principal('1'));
    time.advance(999);
    expect(cache.get('hash-a')).toEqual(principal('1'));
    time.advance(1);
    expect(cache.get('hash-a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('restarts the ttl when a token is set again', () => {
    const time = clock();
    const cache = new PrincipalCache(1_000, 10, time.now);
    cache.set('hash-a', principal('1'));
    time.advance(800);
    cache.set('hash-a', principal('2'));
    time.advance(800);
    expect(cache.get('hash-a')).toEqual(principal('2'));
    expect(cache.size).toBe(1);
  });

  it('drops a token at once (revocation)', () => {
    const cache = new PrincipalCache(60_000);
    cache.set('hash-a', principal('1'));
    cache.set('hash-b', principal('2'));
    cache.drop('hash-a');
    expect(cache.get('hash-a')).toBeUndefined();
    expect(cache.get('hash-b')).toEqual(principal('2'));
    expect(cache.size).toBe(1);
  });

  it('ignores dropping a token it does not hold', () => {
    const cache = new PrincipalCache(60_000);
    cache.set('hash-a', principal('1'));
    cache.drop('hash-z');
    expect(cache.size).toBe(1);
  });

  it('evicts the oldest entry when full', () => {
    const cache = new PrincipalCache(60_000, 2);
    cache.set('hash-a', principal('1'));
    cache.set('hash-b', principal('2'));
    cache.set('hash-c', principal('3'));
    expect(cache.size).toBe(2);
    expect(cache.get('hash-a')).toBeUndefined();
    expect(cache.get('hash-b')).toEqual(principal('2'));
    expect(cache.get('hash-c')).toEqual(principal('3'));
  });

  it('counts a re-set token as the newest, so the next eviction takes another', () => {
    const cache = new PrincipalCache(60_000, 2);
    cache.set('hash-a', principal('1'));
    cache.set('hash-b', principal('2'));
    cache.set('hash-a', principal('1'));
    cache.set('hash-c', principal('3'));
    expect(cache.get('hash-b')).toBeUndefined();
    expect(cache.get('hash-a')).toEqual(principal('1'));
    expect(cache.get('hash-c')).toEqual(principal('3'));
  });

  it('does not evict when a full cache re-sets a token it holds', () => {
    const cache = new PrincipalCache(60_000, 2);
    cache.set('hash-a', principal('1'));
    cache.set('hash-b', principal('2'));
    cache.set('hash-b', principal('20'));
    expect(cache.size).toBe(2);
    expect(cache.get('hash-a')).toEqual(principal('1'));
    expect(cache.get('hash-b')).toEqual(principal('20'));
  });

  it.each([0, -1])('caches nothing when the ttl is %d', (ttl) => {
    const cache = new PrincipalCache(ttl);
    cache.set('hash-a', principal('1'));
    expect(cache.get('hash-a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('drops several tokens at once and says how many it held', () => {
    const cache = new PrincipalCache(60_000);
    cache.set('hash-a', principal('1'));
    cache.set('hash-b', principal('2'));
    expect(cache.dropMany(['hash-a', 'hash-z'])).toBe(1);
    expect(cache.get('hash-a')).toBeUndefined();
    expect(cache.get('hash-b')).toEqual(principal('2'));
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('does not cache an answer read before a drop (it may be the token just revoked)', () => {
    const cache = new PrincipalCache(60_000);
    const before = cache.epoch;
    cache.dropMany(['hash-a']);
    cache.set('hash-a', principal('1'), undefined, before);
    expect(cache.get('hash-a')).toBeUndefined();
    cache.set('hash-a', principal('1'), undefined, cache.epoch);
    expect(cache.get('hash-a')).toEqual(principal('1'));
  });
});
