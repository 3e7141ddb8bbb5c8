import type { KV } from '@nats-io/kv';
import { createLogger } from '@doable/shared-logging';
import { KvSharedCounts } from './kv-shared-counts';
import { RateLimiter } from './rate-limiter';

/** The part of a KV bucket the counts use: get, create and compare-and-set update, in memory. */
function memoryKv(options: { failing?: boolean } = {}): KV {
  const entries = new Map<string, { value: string; revision: number }>();
  let revision = 0;
  const fail = () => (options.failing ? Promise.reject(new Error('kv unreachable')) : undefined);
  const kv = {
    get: (key: string) =>
      fail() ??
      Promise.resolve(entries.has(key) ? { operation: 'PUT', revision: entries.get(key)!.revision, string: () => entries.get(key)!.value } : null),
    create: (key: string, value: string) => {
      if (entries.has(key)) return Promise.reject(new Error('wrong last sequence'));
      entries.set(key, { value, revision: ++revision });
      return Promise.resolve(revision);
    },
    update: (key: string, value: string, expected: number) => {
      if (entries.get(key)?.revision !== expected) return Promise.reject(new Error('wrong last sequence'));
      entries.set(key, { value, revision: ++revision });
      return Promise.resolve(revision);
    },
  };
  return kv as unknown as KV;
}

const logger = createLogger('test', 'silent');
const limits = { windowMs: 60_000, perFamily: { sync: 0, rest: 5, auth: 0 } };

function replica(kv: KV, now: () => number) {
  const limiter = new RateLimiter(limits, now);
  const counts = new KvSharedCounts(kv, logger);
  limiter.shareCounts(counts);
  const admitted = () => {
    try {
      limiter.take('7', 'rest');
      return true;
    } catch {
      return false;
    }
  };
  return { admitted, flush: () => counts.flush(), close: () => counts.close() };
}

describe('KvSharedCounts', () => {
  const now = () => 1_000_000;

  it('makes two replicas spend one budget once their increments are flushed', async () => {
    const kv = memoryKv();
    const [a, b] = [replica(kv, now), replica(kv, now)];
    for (let i = 0; i < 3; i++) expect(a.admitted()).toBe(true);
    await a.flush();
    expect(b.admitted()).toBe(true);
    await b.flush();
    // b has read the total (4): one left for everyone.
    expect(b.admitted()).toBe(true);
    await b.flush();
    expect(b.admitted()).toBe(false);
    // a last read the total before b's requests: it admits on that stale total until its next
    // write reads the new one back (the stated overshoot, one flush interval's worth).
    expect(a.admitted()).toBe(true);
    await a.flush();
    expect(a.admitted()).toBe(false);
    [a, b].forEach((r) => r.close());
  });

  it('never counts a replica’s own flushed requests twice', async () => {
    const single = replica(memoryKv(), now);
    for (let i = 0; i < 4; i++) {
      expect(single.admitted()).toBe(true);
      await single.flush();
    }
    expect(single.admitted()).toBe(true);
    expect(single.admitted()).toBe(false);
    single.close();
  });

  it('fails open: with the store unreachable each replica still holds the budget alone', async () => {
    const alone = replica(memoryKv({ failing: true }), now);
    for (let i = 0; i < 5; i++) expect(alone.admitted()).toBe(true);
    await alone.flush();
    expect(alone.admitted()).toBe(false);
    alone.close();
  });
});
