import type { EventBus } from '@doable/shared-transport';
import { type DelayHistogram, EventLoopDelay } from './event-loop-delay';
import { StoppingState } from '../stop/stopping-state';
import { HealthController } from './health.controller';

/** A monitor that read these delays (ms), one per second. */
function monitorWith(delaysMs: number[]): EventLoopDelay {
  let nextMs = 0;
  const histogram: DelayHistogram = {
    percentile: () => nextMs * 1e6,
    get max() {
      return nextMs * 1e6;
    },
    reset: () => (nextMs = 0),
  };
  const monitor = new EventLoopDelay(histogram, 0);
  delaysMs.forEach((ms, second) => {
    nextMs = ms;
    monitor.sample((second + 1) * 1000);
  });
  return monitor;
}

describe('readiness and the event loop', () => {
  const bus = { isConnected: () => true } as unknown as EventBus;
  const config = { EVENT_LOOP_DELAY_LIMIT_MS: 500, EVENT_LOOP_DELAY_WINDOW_MS: 3000 };
  const ready = async (monitor: EventLoopDelay) => {
    let status = 0;
    const body = await new HealthController(bus, new StoppingState(), monitor, config).ready({ status: (code: number) => (status = code) });
    return { status, eventLoop: body.checks['event_loop'] };
  };

  it('stays ready through a short stall and goes 503 while the delay stays high for the window', async () => {
    expect(await ready(monitorWith([10, 10]))).toEqual({ status: 200, eventLoop: 'up' });
    expect(await ready(monitorWith([900, 900]))).toEqual({ status: 200, eventLoop: 'up' });
    expect(await ready(monitorWith([900, 900, 900]))).toEqual({ status: 503, eventLoop: 'down' });
    expect(await ready(monitorWith([900, 900, 900, 20]))).toEqual({ status: 200, eventLoop: 'up' });
  });
});
