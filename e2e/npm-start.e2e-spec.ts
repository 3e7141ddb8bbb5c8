import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, waitFor } from '@doable/shared-testing';
import { entryOf, run } from './support/processes';

/**
 * `npm start` as a user runs it (the compiled embedded app on a fresh data folder), and the
 * operator CLI beside it: a token reset returns only once the running system's gateway refuses
 * the old token (the CLI cannot reach that gateway over NATS; it waits until the system's relay
 * has delivered the revocation), so the old token fails on the very next request.
 */
describe('npm start and the CLI beside it', () => {
  let dataDir: string;
  let child: ChildProcess;
  let output = '';

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'doable-start-'));
    child = spawn(process.execPath, [entryOf('embedded')], { env: { PATH: process.env['PATH'], DOABLE_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // A first start runs PGlite's initdb and every migration in WebAssembly: tens of seconds on a busy machine.
    await waitFor(() => /API token: +[0-9a-f]{40}/.test(output) || child.exitCode !== null, 'npm start to print its first token', 100_000);
  });

  afterAll(async () => {
    if (child?.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the base URL and a first token that works, and a reset stops the old token before it returns', async () => {
    const url = /base URL: +(\S+)/.exec(output)?.[1];
    let token = /API token: +([0-9a-f]{40})/.exec(output)?.[1];
    expect({ url: typeof url, token: typeof token }).toEqual({ url: 'string', token: 'string' });
    const sync = (with_: string) => http(url!, 'POST', '/api/v1/sync', { token: with_, json: { sync_token: '*', resource_types: ['projects'] } });
    for (let round = 0; round < 3; round++) {
      // A warm cache in the gateway: the case a late revocation would leave open.
      expect((await sync(token!)).status).toBe(200);
      const reset = await run('cli', ['reset-token', '--email', 'admin@doable.local'], { DOABLE_DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
      expect({ status: reset.status, stderr: reset.stderr }).toEqual({ status: 0, stderr: '' });
      const fresh = /API token: ([0-9a-f]{40})/.exec(reset.stdout)?.[1];
      expect((await sync(token!)).status).toBe(401);
      expect((await sync(fresh!)).status).toBe(200);
      token = fresh;
    }
  });
});
