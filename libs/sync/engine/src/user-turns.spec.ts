import { UserTurns } from './user-turns';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('UserTurns', () => {
  it("runs one user's work one at a time, in arrival order, and other users' beside it", async () => {
    const turns = new UserTurns();
    const log: string[] = [];
    const releases: Record<string, () => void> = {};
    const job = (user: string, name: string) =>
      turns.run(user, async () => {
        log.push(`start ${name}`);
        await new Promise<void>((resolve) => (releases[name] = resolve));
        log.push(`end ${name}`);
        return name;
      });
    const a1 = job('a', 'a1');
    const a2 = job('a', 'a2');
    const b1 = job('b', 'b1');
    await tick();
    expect(log).toEqual(['start a1', 'start b1']);
    releases['a1']();
    await a1;
    await tick();
    expect(log).toEqual(['start a1', 'start b1', 'end a1', 'start a2']);
    releases['a2']();
    releases['b1']();
    expect(await Promise.all([a2, b1])).toEqual(['a2', 'b1']);
    expect(turns.waitingUsers).toBe(0);
  });

  it('gives the turn on when the work fails, and keeps the failure for its caller', async () => {
    const turns = new UserTurns();
    await expect(turns.run('a', () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await turns.run('a', () => Promise.resolve('next'))).toBe('next');
    expect(turns.waitingUsers).toBe(0);
  });
});
