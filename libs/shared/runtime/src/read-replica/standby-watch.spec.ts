import type { Logger } from '@doable/shared-logging';
import type { Lsn } from './lsn';
import type { StandbyReading } from './standby-lag';
import { StandbyWatch } from './standby-watch';

/** A primary and a standby as two numbers the spec moves; the standby may be made to fail. */
class FakeServers {
  primary: Lsn = 1_000n;
  replayed: Lsn = 1_000n;
  down = false;
  standbyQueries = 0;
  /** Run at each standby query (a standby that replays while reads wait). */
  onQuery: () => void = () => undefined;

  readonly probes = {
    primaryPosition: () => Promise.resolve(this.primary),
    standbyReading: (): Promise<StandbyReading> => {
      this.standbyQueries++;
      this.onQuery();
      return this.down ? Promise.reject(new Error('connect ECONNREFUSED')) : Promise.resolve({ inRecovery: true, replayed: this.replayed });
    },
  };
}

/** A logger that keeps the messages of the two levels the watch uses. */
function quietLogger(): { logger: Logger; warnings: string[]; infos: string[] } {
  const warnings: string[] = [];
  const infos: string[] = [];
  const logger = {
    warn: (_context: unknown, message: string) => warnings.push(message),
    info: (first: unknown, message?: string) => infos.push(typeof first === 'string' ? first : (message ?? '')),
  } as unknown as Logger;
  return { logger, warnings, infos };
}

describe('StandbyWatch', () => {
  let servers: FakeServers;
  let watch: StandbyWatch;
  let said: ReturnType<typeof quietLogger>;

  beforeEach(async () => {
    servers = new FakeServers();
    said = quietLogger();
    watch = new StandbyWatch(servers.probes, { maxLagMs: 1_000, pollMs: 60_000, chaseMs: 2 }, said.logger);
    // The first poll has nothing to compare with (starting); the second judges.
    await watch.tick();
    expect(watch.unusableReason).toBe('starting');
    await watch.tick();
    expect(watch.usable).toBe(true);
  });

  afterEach(() => watch.stop());

  it('answers at once, without asking the standby, for a position it has seen replayed', async () => {
    const before = servers.standbyQueries;
    await expect(watch.reached(900n, 100)).resolves.toBe('caught-up');
    expect(servers.standbyQueries).toBe(before);
  });

  it('asks again for a position beyond what it has seen, and says whether the standby had it already or got there within the wait', async () => {
    servers.replayed = 1_500n;
    await expect(watch.reached(1_200n, 100)).resolves.toBe('caught-up');
    let queries = 0;
    servers.onQuery = () => {
      if (++queries === 3) servers.replayed = 2_000n;
    };
    await expect(watch.reached(1_800n, 1_000)).resolves.toBe('waited');
    expect(watch.replayed).toBe(2_000n);
  });

  it('gives up after the wait when the standby does not get there', async () => {
    const started = performance.now();
    await expect(watch.reached(5_000n, 50)).resolves.toBe('behind');
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('asks once per round for all the reads waiting, whatever their number', async () => {
    servers.onQuery = () => {
      if (servers.standbyQueries >= 4) servers.replayed = 3_000n;
    };
    const before = servers.standbyQueries;
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, index) => watch.reached(2_000n + BigInt(index), 5_000)));
    expect(new Set(outcomes)).toEqual(new Set(['waited']));
    expect(servers.standbyQueries - before).toBeLessThanOrEqual(5);
  });

  it('a standby that stops answering while reads wait: they go elsewhere at once, and no read is sent there until a poll finds it back', async () => {
    servers.down = true;
    await expect(watch.reached(5_000n, 5_000)).resolves.toBe('behind');
    expect(watch.unusableReason).toBe('unreachable');
    servers.down = false;
    await watch.tick();
    expect(watch.usable).toBe(true);
    expect(said.warnings).toHaveLength(1);
    expect(said.infos.at(-1)).toMatch(/serves reads again/);
  });

  it('a standby behind what the primary had written a bound ago serves no reads, said once, until it catches up', async () => {
    const clock = { now: 0 };
    const timed = new StandbyWatch(servers.probes, { maxLagMs: 1_000, pollMs: 60_000 }, said.logger, () => clock.now);
    try {
      for (let step = 0; step < 4; step++) {
        servers.primary += 100n;
        clock.now += 500;
        await timed.tick();
      }
      // The primary moved 400 past the replayed 1000 over two seconds; the standby stayed.
      expect(timed.unusableReason).toBe('lagging');
      clock.now += 500;
      await timed.tick();
      expect(said.warnings.filter((message) => /primary until/.test(message))).toHaveLength(1);
      expect(timed.lagBytes).toBe(400);
      servers.replayed = servers.primary;
      clock.now += 500;
      await timed.tick();
      expect(timed.usable).toBe(true);
    } finally {
      await timed.stop();
    }
  });
});
