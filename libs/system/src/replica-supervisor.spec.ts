import { RestartBackoff } from './restart-backoff';
import { ReplicaSupervisor, type SupervisedReplica } from './replica-supervisor';

describe('RestartBackoff (CrashLoopBackOff-like)', () => {
  it('doubles from 1 s up to the 30 s cap while the process keeps crashing', () => {
    const backoff = new RestartBackoff();
    let now = 0;
    const delays: number[] = [];
    for (let crash = 0; crash < 8; crash++) {
      backoff.started(now);
      now += 100;
      const delay = backoff.exited(now);
      delays.push(delay);
      now += delay;
    }
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('starts again at 1 s once the process stayed up long enough', () => {
    const backoff = new RestartBackoff({ resetAfterMs: 60_000 });
    backoff.started(0);
    expect(backoff.exited(10)).toBe(1_000);
    backoff.started(1_010);
    expect(backoff.exited(1_020)).toBe(2_000);
    backoff.started(3_020);
    expect(backoff.exited(3_020 + 60_000)).toBe(1_000);
  });
});

class FakeReplica implements SupervisedReplica {
  readonly label = 'plans#1';
  pid: number | undefined = 10;
  running = false;
  starts = 0;
  constructor(private readonly outcomes: ('ready' | 'exits' | 'not-ready')[]) {}
  start(): Promise<void> {
    const outcome = this.outcomes[this.starts++] ?? 'ready';
    this.running = outcome !== 'exits';
    return outcome === 'ready' ? Promise.resolve() : Promise.reject(new Error(outcome === 'exits' ? 'exited during start' : 'not ready after 60000 ms'));
  }
}

describe('ReplicaSupervisor', () => {
  function harness() {
    let now = 0;
    const timers: { at: number; run: () => void }[] = [];
    const lines: string[] = [];
    const supervisor = new ReplicaSupervisor({
      report: (line) => lines.push(line),
      now: () => now,
      setTimer: (run, ms) => {
        timers.push({ at: now + ms, run });
        return setTimeout(() => undefined, 0);
      },
    });
    const fire = async () => {
      const timer = timers.shift()!;
      now = timer.at;
      timer.run();
      await new Promise((resolve) => setImmediate(resolve));
    };
    return { supervisor, timers, lines, fire, tick: (ms: number) => (now += ms) };
  }

  it('keeps restarting a replica that dies at start, with growing waits, and never gives up', async () => {
    const { supervisor, timers, lines, fire } = harness();
    // The database is down for four starts; the fifth comes up.
    const replica = new FakeReplica(['exits', 'exits', 'exits', 'exits', 'ready']);
    supervisor.started(replica);
    supervisor.exited(replica, null, 'SIGKILL');
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(timers).toHaveLength(1);
      await fire();
      // A start that died is reported as an exit by the process (as ClusterProcesses does).
      if (!replica.running) supervisor.exited(replica, 1, null);
    }
    expect(replica.starts).toBe(5);
    expect(timers).toHaveLength(0);
    expect(lines.map((line) => /in (\d+) s/.exec(line)?.[1]).filter(Boolean)).toEqual(['1', '2', '4', '8', '16']);
    expect(lines.at(-1)).toBe('plans#1 is back (pid 10)');
  });

  it('leaves a replica that runs but is not ready yet running (it retries its dependencies itself)', async () => {
    const { supervisor, timers, lines, fire } = harness();
    const replica = new FakeReplica(['not-ready']);
    supervisor.exited(replica, 1, null);
    await fire();
    expect(replica.running).toBe(true);
    expect(timers).toHaveLength(0);
    expect(lines.at(-1)).toMatch(/plans#1 runs but is not ready/);
  });

  it('schedules nothing once stopped, and drops a pending restart', async () => {
    const { supervisor, timers, fire } = harness();
    const replica = new FakeReplica(['ready']);
    supervisor.exited(replica, 1, null);
    supervisor.stop();
    await fire();
    supervisor.exited(replica, 1, null);
    expect(replica.starts).toBe(0);
    expect(timers).toHaveLength(0);
  });
});
