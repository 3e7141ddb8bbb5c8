import { judgeStandby, PrimarySamples } from './standby-lag';

describe('the standby lag rule', () => {
  it('asks for nothing before the first sample, then for the oldest one until samples reach back the whole bound', () => {
    const samples = new PrimarySamples(1_000);
    expect(samples.required(0)).toBeUndefined();
    samples.add({ at: 0, lsn: 100n });
    // A sample taken at the same moment as the judgement does not count yet.
    expect(samples.required(0)).toBeUndefined();
    samples.add({ at: 250, lsn: 200n });
    expect(samples.required(500)).toBe(100n);
  });

  it('asks for the primary\'s position of the bound ago: the newest sample at least that old', () => {
    const samples = new PrimarySamples(1_000);
    for (const [at, lsn] of [
      [0, 100n],
      [400, 200n],
      [800, 300n],
      [1_200, 400n],
      [1_600, 500n],
    ] as const) {
      samples.add({ at, lsn });
    }
    expect(samples.required(1_700)).toBe(200n);
    expect(samples.required(2_000)).toBe(300n);
    expect(samples.latest()).toBe(500n);
  });

  it('forgets samples older than the one the rule compares with', () => {
    const samples = new PrimarySamples(100);
    for (let at = 0; at <= 10_000; at += 10) samples.add({ at, lsn: BigInt(at) });
    expect(samples.required(10_005)).toBe(9_900n);
    expect((samples as unknown as { samples: unknown[] }).samples.length).toBeLessThanOrEqual(12);
  });

  it('judges: not a standby (promoted, or never one), starting, lagging, usable', () => {
    expect(judgeStandby({ inRecovery: false, replayed: 500n }, 100n)).toEqual({ usable: false, reason: 'not-a-standby' });
    expect(judgeStandby({ inRecovery: true, replayed: null }, 100n)).toEqual({ usable: false, reason: 'not-a-standby' });
    expect(judgeStandby({ inRecovery: true, replayed: 500n }, undefined)).toEqual({ usable: false, reason: 'starting' });
    expect(judgeStandby({ inRecovery: true, replayed: 99n }, 100n)).toEqual({ usable: false, reason: 'lagging' });
    expect(judgeStandby({ inRecovery: true, replayed: 100n }, 100n)).toEqual({ usable: true });
  });
});
