import type { Logger } from '@doable/shared-logging';
import { type Stoppable, stopGracefully } from './stop-sequence';

describe('stopGracefully', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const logger = () => ({ info: jest.fn(), error: jest.fn() }) as unknown as Logger & { info: jest.Mock; error: jest.Mock };

  function target(close: () => Promise<void>): Stoppable & { calls: string[] } {
    const calls: string[] = [];
    return {
      calls,
      markStopping: () => void calls.push('not-ready'),
      close: () => {
        calls.push('close');
        return close();
      },
      stillOpen: () => ({ httpConnections: 3 }),
      forceClose: () => void calls.push('force-close'),
    };
  }

  it('marks not-ready at once, keeps serving for the drain, then closes and exits 0', async () => {
    const stopped = target(() => Promise.resolve());
    const exit = jest.fn();
    const log = logger();
    const stopping = stopGracefully(stopped, { settings: { drainMs: 2_000, timeoutMs: 10_000 }, logger: log, reason: 'SIGTERM', exit });
    await jest.advanceTimersByTimeAsync(1_999);
    expect(stopped.calls).toEqual(['not-ready']);
    await jest.advanceTimersByTimeAsync(1);
    await stopping;
    expect(stopped.calls).toEqual(['not-ready', 'close']);
    expect(exit.mock.calls).toEqual([[0]]);
    // Every step is logged with its duration.
    expect(log.info.mock.calls.map((call: unknown[]) => call[1])).toEqual(['stopping', 'stop: not-ready done', 'stop: drain done', 'stop: close done', 'stopped']);
  });

  it('ends the process at the deadline whatever the clients do, saying what was still open', async () => {
    const stopped = target(() => new Promise<void>(() => undefined));
    const exit = jest.fn();
    const log = logger();
    void stopGracefully(stopped, { settings: { drainMs: 0, timeoutMs: 10_000 }, logger: log, reason: 'SIGTERM', exit });
    await jest.advanceTimersByTimeAsync(9_999);
    expect(exit).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(stopped.calls).toEqual(['not-ready', 'close', 'force-close']);
    expect(exit.mock.calls).toEqual([[1]]);
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ step: 'close', stillOpen: { httpConnections: 3 } }), expect.stringContaining('deadline'));
  });

  it('exits 1 when closing fails, and the deadline then stays quiet', async () => {
    const stopped = target(() => Promise.reject(new Error('pool would not close')));
    const exit = jest.fn();
    await stopGracefully(stopped, { settings: { drainMs: 0, timeoutMs: 10_000 }, logger: logger(), reason: 'SIGHUP', exit });
    await jest.advanceTimersByTimeAsync(20_000);
    expect(exit.mock.calls).toEqual([[1]]);
  });
});
