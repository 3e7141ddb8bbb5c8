import { type ChildProcess, spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

const NATS_SERVER = '/usr/sbin/nats-server';

/**
 * A nats-server (with JetStream) of one suite's own, on a free port: for suites that stop and
 * restart NATS, which they must never do to the machine's shared server (4222) other runs use.
 */
export interface PrivateNats {
  readonly url: string;
  /** Whether the server is up (false after stop(), or if it died). */
  running(): boolean;
  /** SIGTERM and wait: the server goes away; JetStream's store stays on disk. */
  stop(): Promise<void>;
  /** Starts it again on the same port and store. */
  start(): Promise<void>;
  /** Stops it and removes its store. */
  destroy(): Promise<void>;
}

export async function startPrivateNats(label = 'private-nats'): Promise<PrivateNats> {
  const store = mkdtempSync(join(tmpdir(), `doable-${label}-`));
  if (process.getuid?.() === 0) chownSync(store, 0, 0);
  const port = await freePort();
  let server: ChildProcess | undefined;
  const start = async () => {
    const child = spawn(NATS_SERVER, ['-js', '-sd', store, '-a', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
    server = child;
    let log = '';
    await new Promise<void>((ok, fail) => {
      child.stderr.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('Server is ready')) ok();
      });
      child.once('exit', (code) => fail(new Error(`nats-server exited ${code}: ${log}`)));
    });
  };
  const stop = async () => {
    const child = server;
    server = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((ok) => child.once('exit', ok));
    child.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    running: () => server !== undefined && server.exitCode === null,
    stop,
    start,
    async destroy() {
      await stop();
      rmSync(store, { recursive: true, force: true });
    },
  };
}
