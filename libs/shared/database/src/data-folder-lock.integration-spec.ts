import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@doable/shared-testing';
import { readDataFolderHolder, tryLockDataFolder, waitForDataFolder } from './data-folder-lock';
import { claimDataFolder, describeOwner } from './data-folder-owner';
import { readRuntimeFile } from './embedded-runtime-file';

/**
 * The lock between processes, as two `npm start`s meet it: another process runs this module
 * from its TypeScript source (compiled by swc as it is required, as the embedded database's
 * worker does under Jest) and holds a folder until told to release it, or is killed.
 */
interface Holder {
  readonly child: ChildProcess;
  output(): string;
  /** Lines it printed so far. */
  says(line: string): boolean;
  exited: Promise<void>;
}

const MODULE = join(__dirname, 'data-folder-owner.ts');

function startHolder(dataDir: string, how: 'try' | 'claim'): Holder {
  const script = `
    const { readFileSync } = require('node:fs');
    const { createRequire } = require('node:module');
    const entry = ${JSON.stringify(MODULE)};
    const load = createRequire(entry);
    const { transformSync } = load('@swc/core');
    require.extensions['.ts'] = (module, filename) => {
      const { code } = transformSync(readFileSync(filename, 'utf8'), { filename, swcrc: false, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } });
      module._compile(code, filename);
    };
    const owner = load(entry);
    const lock = load(${JSON.stringify(join(__dirname, 'data-folder-lock.ts'))});
    (async () => {
      if (${JSON.stringify(how)} === 'try') {
        const held = await lock.tryLockDataFolder(process.argv[1], 'a test holder');
        process.stdout.write(held ? 'held\\n' : 'refused\\n');
        process.stdin.once('data', async () => { await held?.release(); process.stdout.write('released\\n'); });
      } else {
        const claim = await owner.claimDataFolder(process.argv[1], { holder: 'npm start' });
        process.stdout.write('owned\\n');
        process.stdin.once('data', async () => {
          await claim.ownership.publish({ url: 'http://127.0.0.1:1', databaseUrl: 'postgres://127.0.0.1:2' });
          process.stdout.write('published\\n');
          process.stdin.once('data', async () => {
            // Stands for the database's close: the runtime file and the lock must outlive it.
            await claim.ownership.close(() => new Promise((closed) => { process.stdout.write('closing\\n'); process.stdin.once('data', closed); }));
            process.stdout.write('closed\\n');
          });
        });
      }
    })();`;
  const child = spawn(process.execPath, ['-e', script, dataDir], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return { child, output: () => output, says: (line) => output.split('\n').includes(line), exited };
}

/** A child compiles this module with swc first: seconds on a busy machine. */
const SAYS_MS = 60_000;
/** Above the tier's 30 s: a test waits for up to three children. */
const TEST_MS = 3 * SAYS_MS;

describe('data folder lock (one owner per embedded data folder)', () => {
  let dataDir: string;
  const holders: Holder[] = [];
  const hold = (how: 'try' | 'claim') => {
    const holder = startHolder(dataDir, how);
    holders.push(holder);
    return holder;
  };

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'doable-folder-lock-'));
  });
  afterEach(async () => {
    for (const holder of holders.splice(0)) {
      if (holder.child.exitCode === null && holder.child.signalCode === null) holder.child.kill('SIGKILL');
      await holder.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  }, TEST_MS);

  it('refuses a second process while the first holds the folder, names the holder, and is free again once the holder is SIGKILLed', async () => {
    const first = hold('try');
    await waitFor(() => first.says('held'), 'the first process to take the folder', SAYS_MS);
    expect(await tryLockDataFolder(dataDir, 'this test')).toBeUndefined();
    expect(await readDataFolderHolder(dataDir)).toEqual({ pid: first.child.pid, holder: 'a test holder' });
    const second = hold('try');
    await waitFor(() => second.says('refused') || second.says('held'), 'the second process to try', SAYS_MS);
    expect(second.says('refused')).toBe(true);

    // No release, no exit handler: the kernel frees the folder with the process.
    first.child.kill('SIGKILL');
    await first.exited;
    const mine = await tryLockDataFolder(dataDir, 'this test');
    expect(mine).toBeDefined();
    expect(await readDataFolderHolder(dataDir)).toEqual({ pid: process.pid, holder: 'this test' });
    await mine!.release();
  }, TEST_MS);

  it('lets a waiter in only once the holder releases, and then refuses every other open, even in the same process', async () => {
    const first = hold('try');
    await waitFor(() => first.says('held'), 'the first process to take the folder', SAYS_MS);
    let waited = false;
    const waiting = waitForDataFolder(dataDir, 'this test').then((lock) => {
      waited = true;
      return lock;
    });
    await expect(readDataFolderHolder(dataDir)).resolves.toEqual({ pid: first.child.pid, holder: 'a test holder' });
    expect(waited).toBe(false);
    first.child.stdin?.write('release\n');
    await waitFor(() => first.says('released'), 'the holder to release', SAYS_MS);
    const mine = await waiting;
    expect(waited).toBe(true);
    // Held here now: another open (even of this process) is refused.
    expect(await tryLockDataFolder(dataDir, 'a second open')).toBeUndefined();
    await mine.release();
    const again = await tryLockDataFolder(dataDir, 'a second open');
    expect(again).toBeDefined();
    await again!.release();
  }, TEST_MS);

  it('keeps the runtime file and the lock until the database closed, then gives both up', async () => {
    const owner = hold('claim');
    await waitFor(() => owner.says('owned'), 'the owner to take the folder', SAYS_MS);
    // Holding but not serving: a claim with little patience is refused, naming the owner.
    await expect(claimDataFolder(dataDir, { holder: 'this test', patienceMs: 300 })).rejects.toThrow(`in use by pid ${owner.child.pid} (npm start, not serving yet)`);

    owner.child.stdin?.write('publish\n');
    await waitFor(() => owner.says('published'), 'the owner to publish its address', SAYS_MS);
    const found = await claimDataFolder(dataDir, { holder: 'this test', patienceMs: 0 });
    expect(found.kind === 'served' && describeOwner(found.owner)).toBe(`pid ${owner.child.pid} (npm start, http://127.0.0.1:1)`);

    owner.child.stdin?.write('stop\n');
    await waitFor(() => owner.says('closing'), 'the owner to start closing its database', SAYS_MS);
    // Mid-close: whoever looks still finds the owner, and nobody can take the folder.
    expect((await readRuntimeFile(dataDir))?.pid).toBe(owner.child.pid);
    expect(await tryLockDataFolder(dataDir, 'this test')).toBeUndefined();

    owner.child.stdin?.write('closed\n');
    await waitFor(() => owner.says('closed'), 'the owner to finish its close', SAYS_MS);
    expect(existsSync(join(dataDir, 'embedded.json'))).toBe(false);
    const mine = await tryLockDataFolder(dataDir, 'this test');
    expect(mine).toBeDefined();
    await mine!.release();
  }, TEST_MS);
});
