import { join } from 'node:path';
import { DomainError } from '@doable/shared-errors';
import { CpuPool } from './cpu-pool';

const TASK = join(__dirname, '../../testing/cpu-pool-task.fixture');

describe('CpuPool', () => {
  let pool: CpuPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('runs a TypeScript task module on a worker thread (from the sources under Jest), and its DomainError comes back coded', async () => {
    pool = new CpuPool({ size: 1, maxQueue: 2 });
    const answer = await pool.run<{ echo: unknown; threadId: number }>(TASK, { echo: { rows: [1, 2] } });
    expect(answer.echo).toEqual({ rows: [1, 2] });
    expect(answer.threadId).not.toBe(0);
    const refused = await pool.run(TASK, { refuse: true }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ code: 'INVALID_ARGUMENT_VALUE', extra: { argument: 'file' } });
  }, 60_000);

  it('leaves the event loop free while a task holds its thread', async () => {
    pool = new CpuPool({ size: 1, maxQueue: 2 });
    await pool.run(TASK, {}); // the thread is up
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    await pool.run(TASK, { spinMs: 300 });
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(3);
  }, 60_000);

  it('refuses past its queue with SERVICE_UNAVAILABLE and a retry_after, and runs what it accepted', async () => {
    pool = new CpuPool({ size: 1, maxQueue: 1 });
    await pool.run(TASK, {});
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        pool!.run<{ echo: unknown }>(TASK, { spinMs: 100, echo: index }).then(
          (answer) => ({ ran: answer.echo }),
          (err: unknown) => ({ refused: err instanceof DomainError ? [err.code, err.extra['retry_after']] : String(err) }),
        ),
      ),
    );
    const refused = outcomes.filter((outcome) => 'refused' in outcome);
    expect(refused.length).toBeGreaterThan(0);
    expect(outcomes.length - refused.length).toBeGreaterThan(0);
    for (const outcome of refused) expect(outcome).toEqual({ refused: ['SERVICE_UNAVAILABLE', 2] });
  }, 60_000);

  it('sizes itself from the cores unless told', () => {
    pool = new CpuPool();
    expect(pool.size).toBeGreaterThanOrEqual(1);
    expect(pool.maxQueue).toBe(4 * pool.size);
  });
});
