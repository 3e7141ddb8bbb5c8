import { type Logger, PRODUCT_VERSION } from '@doable/shared-logging';
import { startBootHealthServer } from './boot-health-server';
import { describeStartError, startRetryDelay, StartupState, targetOf, waitForDependencies } from './start-retry';

function recordingLogger() {
  const warnings: { fields: Record<string, unknown>; msg: string }[] = [];
  const logger = { warn: (fields: Record<string, unknown>, msg: string) => warnings.push({ fields, msg }), info: () => undefined } as unknown as Logger;
  return { logger, warnings };
}

describe('start retry', () => {
  it('backs off exponentially to the cap, with jitter within half a step', () => {
    const low = [1, 2, 3, 4, 5, 6, 7].map((attempt) => startRetryDelay(attempt, { random: () => 0 }));
    const high = [1, 2, 3, 4, 5, 6, 7].map((attempt) => startRetryDelay(attempt, { random: () => 0.999999 }));
    expect(low).toEqual([250, 500, 1_000, 2_000, 4_000, 5_000, 5_000]);
    expect(high).toEqual([500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
  });

  it('names host and port, never credentials', () => {
    expect(targetOf('postgres://doable:s3cret@db.internal:5433/doable')).toBe('db.internal:5433');
    expect(describeStartError(new Error('could not reach postgres://doable:s3cret@db:5432/x'))).toBe('could not reach postgres://doable:***@db:5432/x');
    expect(describeStartError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe('connect ECONNREFUSED 127.0.0.1:5432');
  });

  it('retries until every dependency answers, one warning per failed attempt, and readiness says why meanwhile', async () => {
    const { logger, warnings } = recordingLogger();
    const state = new StartupState();
    let databaseUp = false;
    const sleeps: number[] = [];
    const reasons: string[] = [];
    const attempts = await waitForDependencies(
      [
        { name: 'broker', target: '127.0.0.1:4222', probe: () => Promise.resolve() },
        { name: 'database', target: '127.0.0.1:5432', probe: () => (databaseUp ? Promise.resolve() : Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))) },
      ],
      {
        logger,
        state,
        backoff: { random: () => 0.5 },
        sleep: (ms) => {
          sleeps.push(ms);
          reasons.push(state.reason);
          if (sleeps.length === 3) databaseUp = true;
          return Promise.resolve();
        },
      },
    );
    expect(attempts).toBe(4);
    expect(sleeps).toEqual([375, 750, 1_500]);
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toEqual({ msg: 'dependencies unreachable at start; retrying', fields: { attempt: 1, retryInMs: 375, unreachable: [{ dependency: 'database', target: '127.0.0.1:5432', error: 'connect ECONNREFUSED 127.0.0.1:5432' }] } });
    expect(reasons[0]).toBe('starting: database unreachable (connect ECONNREFUSED 127.0.0.1:5432)');
    expect(state.checks).toEqual({ broker: 'up', database: 'up' });
  });

  it('stops waiting when told to (a SIGTERM while starting)', async () => {
    const { logger } = recordingLogger();
    const aborted = new AbortController();
    const waiting = waitForDependencies([{ name: 'broker', target: 'nats:4222', probe: () => Promise.reject(new Error('CONNECTION_REFUSED')) }], { logger, state: new StartupState(), signal: aborted.signal });
    setTimeout(() => aborted.abort(), 20);
    await expect(waiting).rejects.toThrow('stopped while waiting');
  });

  it('serves live 200 and ready 503 with the reason while waiting', async () => {
    const state = new StartupState();
    state.markUp('broker');
    state.markDown('database', 'connect ECONNREFUSED 127.0.0.1:5432');
    const server = await startBootHealthServer(state, 0, '127.0.0.1');
    try {
      const live = await fetch(`http://127.0.0.1:${server.port}/health/live`);
      const ready = await fetch(`http://127.0.0.1:${server.port}/health/ready`);
      expect({ live: live.status, ready: ready.status, retryAfter: ready.headers.get('retry-after') }).toEqual({ live: 200, ready: 503, retryAfter: '1' });
      expect(await ready.json()).toEqual({ status: 'error', reason: 'starting: database unreachable (connect ECONNREFUSED 127.0.0.1:5432)', checks: { broker: 'up', database: 'down' }, version: PRODUCT_VERSION });
      expect(await live.json()).toEqual({ status: 'ok', version: PRODUCT_VERSION });
    } finally {
      await server.close();
    }
  });
});
