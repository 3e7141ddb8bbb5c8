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
  /** The server's process id while it runs (to read its CPU time). */
  readonly pid: number | undefined;
  /** Whether the server is up (false after stop(), or if it died). */
  running(): boolean;
  /** SIGTERM and wait: the server goes away; JetStream's store stays on disk. */
  stop(): Promise<void>;
  /** Starts it again on the same port and store. */
  start(): Promise<void>;
  /** Stops it and removes its store. */
  destroy(): Promise<void>;
}

/** A private store folder (owned by root when the suite runs as root: nats-server runs as the suite's user). */
export function privateStore(label: string): string {
  const store = mkdtempSync(join(tmpdir(), `doable-${label}-`));
  if (process.getuid?.() === 0) chownSync(store, 0, 0);
  return store;
}

/** A nats-server process of the suite's own, started (and restarted) with the same arguments. */
export class NatsServerProcess {
  private server: ChildProcess | undefined;

  constructor(private readonly args: readonly string[]) {}

  /** The server's process id while it runs (to read its CPU time). */
  get pid(): number | undefined {
    return this.running() ? this.server?.pid : undefined;
  }

  running(): boolean {
    return this.server !== undefined && this.server.exitCode === null && this.server.signalCode === null;
  }

  /** Starts the server and resolves once it says it is ready for clients. */
  async start(): Promise<void> {
    const child = spawn(NATS_SERVER, [...this.args], { stdio: ['ignore', 'ignore', 'pipe'] });
    this.server = child;
    let log = '';
    await new Promise<void>((ok, fail) => {
      child.stderr.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('Server is ready')) ok();
      });
      child.once('exit', (code) => fail(new Error(`nats-server exited ${code}: ${log}`)));
    });
  }

  /** Sends the signal (SIGTERM: a clean stop; SIGKILL: a crash) and waits for the exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.server;
    this.server = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((ok) => child.once('exit', ok));
    child.kill(signal);
    await exited;
  }
}

export async function startPrivateNats(label = 'private-nats'): Promise<PrivateNats> {
  const store = privateStore(label);
  const port = await freePort();
  const server = new NatsServerProcess(['-js', '-sd', store, '-a', '127.0.0.1', '-p', String(port)]);
  await server.start();
  return {
    url: `nats://127.0.0.1:${port}`,
    get pid() {
      return server.pid;
    },
    running: () => server.running(),
    stop: () => server.stop(),
    start: () => server.start(),
    async destroy() {
      await server.stop();
      rmSync(store, { recursive: true, force: true });
    },
  };
}
