import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * What a running server reads from dist/ while someone builds (issue #44, finding 6): every
 * `npm run cli` used to empty and refill dist/, and `/app/` answered 404 for about a second.
 * The build now writes beside its folder and renames it into place; the CLI builds into a folder
 * of its own. Both are watched here the way a server sees them: a poll of the served file that
 * must never miss, for the whole length of a real build.
 */
const repo = resolve(__dirname, '..');

function node(args: string[], env: Record<string, string> = {}): { child: ChildProcess; done: Promise<{ code: number | null; output: string }> } {
  const child = spawn(process.execPath, args, { cwd: repo, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close' (its output ended), not 'exit' (which can come before the last of it is read).
  const done = new Promise<{ code: number | null; output: string }>((settle) => child.once('close', (code) => settle({ code, output })));
  return { child, done };
}

/** Polls `file` every few milliseconds until `until` settles; counts the polls that found no file. */
async function watchWhile(file: string, until: Promise<unknown>): Promise<{ polls: number; missing: number }> {
  let finished = false;
  void until.finally(() => (finished = true));
  let polls = 0;
  let missing = 0;
  while (!finished) {
    polls++;
    if (!existsSync(file)) missing++;
    await new Promise((wake) => setTimeout(wake, 2));
  }
  return { polls, missing };
}

describe('a build beside a running server', () => {
  let scratch: string;

  beforeAll(() => {
    mkdirSync(join(repo, 'tmp'), { recursive: true });
    scratch = mkdtempSync(join(repo, 'tmp', 'build-output-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('replaces its output folder whole: the served index.html is there at every moment of the build', async () => {
    const outDir = join(scratch, 'dist');
    mkdirSync(join(outDir, 'web'), { recursive: true });
    writeFileSync(join(outDir, 'web', 'index.html'), '<!doctype html><title>the build before</title>');
    // What only the old build had goes once the new one is in place.
    writeFileSync(join(outDir, 'web', 'stale.js'), 'old');
    const build = node(['--input-type=module', '-e', `const { build } = await import('./tools/scripts/build.mjs'); await build({ outDir: ${JSON.stringify(outDir)} });`]);
    const seen = await watchWhile(join(outDir, 'web', 'index.html'), build.done);
    const { code, output } = await build.done;
    expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
    expect(seen.polls).toBeGreaterThan(20);
    expect(seen.missing).toBe(0);
    // The new build is in place, and nothing of the staging folders is left beside it.
    expect(existsSync(join(outDir, 'apps', 'embedded', 'src', 'main.js'))).toBe(true);
    expect(statSync(join(outDir, 'web', 'index.html')).size).toBeGreaterThan(100);
    expect(existsSync(join(outDir, 'web', 'stale.js'))).toBe(false);
    expect(existsSync(`${outDir}.next-${build.child.pid}`)).toBe(false);
  });

  it('the operator CLI leaves dist/ alone: it builds into tmp/cli, once', async () => {
    const served = join(repo, 'dist', 'web', 'index.html');
    const before = statSync(join(repo, 'dist'));
    const servedBefore = statSync(served);
    rmSync(join(repo, 'tmp', 'cli'), { recursive: true, force: true });
    const cli = node(['tools/scripts/cli.mjs', '--help']);
    const seen = await watchWhile(served, cli.done);
    const { code, output } = await cli.done;
    expect({ code, usage: /Usage|usage|Commands|commands/.test(output) }).toEqual({ code: 0, usage: true });
    expect(seen.missing).toBe(0);
    // The same folder and the same file, not a copy put back: nothing under dist/ was rewritten.
    expect(statSync(join(repo, 'dist')).ino).toBe(before.ino);
    expect(statSync(served).mtimeMs).toBe(servedBefore.mtimeMs);
    expect(existsSync(join(repo, 'tmp', 'cli', 'apps', 'cli', 'src', 'main.js'))).toBe(true);
    // A second run finds its build fresh and compiles nothing.
    const built = statSync(join(repo, 'tmp', 'cli', 'apps', 'cli', 'src', 'main.js')).mtimeMs;
    expect((await node(['tools/scripts/cli.mjs', '--help']).done).code).toBe(0);
    expect(statSync(join(repo, 'tmp', 'cli', 'apps', 'cli', 'src', 'main.js')).mtimeMs).toBe(built);
  });
});
