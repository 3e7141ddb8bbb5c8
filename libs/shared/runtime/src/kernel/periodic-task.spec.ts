import type { Logger } from '@doable/shared-logging';
import { PeriodicTask } from './periodic-task';

describe('PeriodicTask', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const logger = () => ({ warn: jest.fn() }) as unknown as Logger & { warn: jest.Mock };

  it('never runs two looks at once, and runs again once the slow one ended', async () => {
    let release!: () => void;
    let looks = 0;
    const task = new PeriodicTask(() => { looks++; return new Promise<void>((resolve) => (release = resolve)); }, { intervalMs: 100, logger: logger(), failure: 'failed' });
    task.start();
    await jest.advanceTimersByTimeAsync(350);
    expect(looks).toBe(1);
    release();
    await jest.advanceTimersByTimeAsync(100);
    expect(looks).toBe(2);
    task.stop();
  });

  it('logs a failed look and keeps looking; stop ends it', async () => {
    const log = logger();
    let looks = 0;
    const task = new PeriodicTask(() => { looks++; return Promise.reject(new Error('db down')); }, { intervalMs: 100, logger: log, failure: 'look failed' });
    task.start();
    await jest.advanceTimersByTimeAsync(250);
    expect(looks).toBe(2);
    expect(log.warn).toHaveBeenCalledWith({ err: expect.any(Error) }, 'look failed');
    task.stop();
    await jest.advanceTimersByTimeAsync(500);
    expect(looks).toBe(2);
  });

  it('looks at once on a wake, without waiting for the interval', async () => {
    let looks = 0;
    const task = new PeriodicTask(() => { looks++; return Promise.resolve(); }, { intervalMs: 3_600_000, logger: logger(), failure: 'failed' });
    task.start();
    task.wake();
    await jest.advanceTimersByTimeAsync(0);
    expect(looks).toBe(1);
    task.stop();
  });

  it('coalesces wakes during a look into one more look after it', async () => {
    const releases: Array<() => void> = [];
    let looks = 0;
    const task = new PeriodicTask(() => { looks++; return new Promise<void>((resolve) => releases.push(resolve)); }, { intervalMs: 3_600_000, logger: logger(), failure: 'failed' });
    task.start();
    task.wake();
    for (let wake = 0; wake < 10; wake++) task.wake();
    await jest.advanceTimersByTimeAsync(0);
    expect(looks).toBe(1);
    releases[0]();
    await jest.advanceTimersByTimeAsync(0);
    expect(looks).toBe(2);
    releases[1]();
    await jest.advanceTimersByTimeAsync(0);
    expect(looks).toBe(2);
    task.stop();
  });

  it('ignores a wake before start and after stop', async () => {
    let looks = 0;
    const task = new PeriodicTask(() => { looks++; return Promise.resolve(); }, { intervalMs: 100, logger: logger(), failure: 'failed' });
    task.wake();
    await jest.advanceTimersByTimeAsync(0);
    task.start();
    task.stop();
    task.wake();
    await jest.advanceTimersByTimeAsync(500);
    expect(looks).toBe(0);
  });
});
