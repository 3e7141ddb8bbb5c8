import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tryLockDataFolder } from '@doable/shared-database';
import { http, waitFor } from '@doable/shared-testing';
import { type NpmStart, npmStart } from './support/npm-start';
import { entryOf } from './support/processes';

/** A first start runs PGlite's initdb and every migration in WebAssembly: tens of seconds on a busy machine. */
const FIRST_START_MS = 150_000;
/** A start on a migrated folder, or a stop. */
const START_MS = 90_000;
/** Each test starts several systems one after another: above the tier's 120 s on a loaded machine. */
const TEST_MS = FIRST_START_MS + 3 * START_MS;

/**
 * One owner per data folder (issue #45): two `npm start`s on one folder never both open its
 * database, whether they start at the same moment or one starts while the other stops. The
 * data made before is whole afterwards.
 */
describe('npm start: one owner per data folder', () => {
  let dataDir: string;
  let token: string;
  let taskId: string;
  const started: NpmStart[] = [];
  const start = (args: string[] = []) => {
    const process = npmStart(dataDir, args);
    started.push(process);
    return process;
  };
  const tasksOf = async (url: string) => {
    const sync = await http<{ items: Array<{ id: string; content: string }> }>(url, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['items'] } });
    expect(sync.status).toBe(200);
    return sync.body.items.map((item) => ({ id: item.id, content: item.content }));
  };
  const refusalOf = (owner: NpmStart) => `Doable is already running on this data folder: pid ${owner.pid} (npm start, ${owner.url()}).`;
  const runtimeFilePid = () => (JSON.parse(readFileSync(join(dataDir, 'embedded.json'), 'utf8')) as { pid: number }).pid;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'doable-one-owner-'));
  });

  afterAll(async () => {
    for (const process of started) if (!process.ended()) process.child.kill('SIGKILL');
    await Promise.all(started.map((process) => process.exited));
    rmSync(dataDir, { recursive: true, force: true });
  }, TEST_MS);

  it('of two starts at the same moment exactly one serves, the other exits naming its pid and URL; the data survives a restart', async () => {
    const pair = [start(), start()];
    await waitFor(() => pair.some((process) => process.serves()) && pair.some((process) => process.ended()), 'one start to serve and the other to end', FIRST_START_MS);
    const owner = pair.find((process) => process.serves())!;
    const refused = pair.find((process) => process !== owner)!;
    expect({ servers: pair.filter((process) => process.serves()).length, refusedCode: await refused.exited }).toEqual({ servers: 1, refusedCode: 1 });
    expect(refused.output()).toContain(refusalOf(owner));
    expect((await http(owner.url()!, 'GET', '/health/ready')).status).toBe(200);

    token = owner.token()!;
    const added = await http<{ temp_id_mapping: Record<string, string> }>(owner.url()!, 'POST', '/api/v1/sync', {
      token,
      json: { commands: [{ type: 'item_add', uuid: 'b1f0c6a2-7d4e-4c3b-9a51-3f2e8d6c1a01', temp_id: 'kept', args: { content: 'Made before the restart' } }] },
    });
    expect(added.status).toBe(200);
    taskId = added.body.temp_id_mapping['kept'];

    expect(await owner.stop()).toBe(0);
    const again = start();
    await waitFor(() => again.serves() || again.ended(), 'the restart to serve', START_MS);
    expect(again.output()).toContain('accounts exist already');
    expect(await tasksOf(again.url()!)).toContainEqual({ id: taskId, content: 'Made before the restart' });
  }, TEST_MS);

  it('a start while the owner serves or stops refuses, or with --wait serves only once the owner has closed', async () => {
    const owner = started.at(-1)!;
    expect(owner.serves() && !owner.ended()).toBe(true);

    const waiter = start(['--wait']);
    await waitFor(() => waiter.output().includes(`Waiting for pid ${owner.pid} (npm start, ${owner.url()})`) || waiter.ended(), 'the --wait start to say whom it waits for', START_MS);
    const refused = start();
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain(refusalOf(owner));
    expect(waiter.serves()).toBe(false);

    // The waiter serves only after the owner's database closed and the owner ended.
    let ownerEndedFirst: boolean | undefined;
    waiter.child.stdout?.on('data', () => (ownerEndedFirst ??= waiter.serves() ? owner.ended() : undefined));
    expect(await owner.stop()).toBe(0);
    await waitFor(() => waiter.serves() || waiter.ended(), 'the --wait start to serve', START_MS);
    expect({ serves: waiter.serves(), ownerEndedFirst }).toEqual({ serves: true, ownerEndedFirst: true });
    // The owner removed its runtime file before it gave the folder up, never the waiter's.
    expect(runtimeFilePid()).toBe(waiter.pid);
    expect(await tasksOf(waiter.url()!)).toContainEqual({ id: taskId, content: 'Made before the restart' });

    // A plain start during the stop: refused while the folder is held, else it serves alone.
    const stopped = waiter.stop();
    const during = start();
    await waitFor(() => during.serves() || during.ended(), 'the start during the stop to decide', START_MS);
    const waiterEndedFirst = waiter.ended();
    expect(await stopped).toBe(0);
    if (during.ended()) expect(during.output()).toContain(refusalOf(waiter));
    else expect(waiterEndedFirst).toBe(true);
  }, TEST_MS);

  it('the operator CLI waits while another process holds the folder, then opens the database itself', async () => {
    for (const process of started) await process.stop();
    const lock = await tryLockDataFolder(dataDir, 'this test');
    expect(lock).toBeDefined();
    const cli = spawn(process.execPath, [entryOf('cli'), 'list-plans'], { env: { PATH: process.env['PATH'], DOABLE_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    cli.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    cli.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // 'close', not 'exit': the output asserted below has all been read.
    const exited = new Promise<number | null>((done) => cli.once('close', done));
    try {
      await waitFor(() => output.includes(`waiting for pid ${process.pid} (this test, not serving yet)`) || cli.exitCode !== null, 'the CLI to say whom it waits for', START_MS);
      expect(cli.exitCode).toBeNull();
    } finally {
      await lock!.release();
    }
    expect(await exited).toBe(0);
    expect(output).toContain('workspace plans:');
  }, TEST_MS);
});
