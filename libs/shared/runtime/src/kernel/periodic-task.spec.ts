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
});
