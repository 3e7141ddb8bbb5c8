import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { readyUrlOf } from '@doable/shared-logging';

export const REPO_ROOT = resolve(__dirname, '..', '..');

/** The compiled entry of an app (`npm run build`); the same file a container runs. */
export function entryOf(app: string): string {
  const entry = join(REPO_ROOT, 'dist', 'apps', app, 'src', 'main.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first (npm test does)`);
  return entry;
}

/** Moved to the shared test kit (the benchmarks use it too); re-exported for the e2e specs. */
export { freePort } from '@doable/shared-testing';

export interface Run {
  readonly status: number | null;
  /** The signal that ended it (SIGTERM when it outran RUN_TIMEOUT_MS), else null. */
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

// A CLI run on a machine whose cores are all taken can start slowly (Nest, the database's
// migrations checked): the bound stays under the e2e test timeout (tools/jest/timeout-e2e.ts).
const RUN_TIMEOUT_MS = 100_000;

/**
 * Runs an app's command and waits for it, blocking this process. Only for specs that keep no
 * HTTP connection open meanwhile: while the event loop is blocked, fetch cannot retire a
 * kept-alive connection before the server closes it, and the next request on it fails.
 */
export function runToCompletion(app: string, args: string[], env: NodeJS.ProcessEnv): Run {
  const result = spawnSync(process.execPath, [entryOf(app), ...args], { env: { PATH: process.env['PATH'], ...env }, encoding: 'utf8', timeout: RUN_TIMEOUT_MS });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Runs an app's command to its end without blocking the event loop, so connections this
 * process keeps alive (fetch's pool) are retired on time while the command runs.
 */
export function run(app: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const child = spawn(process.execPath, [entryOf(app), ...args], { env: { PATH: process.env['PATH'], ...env }, stdio: ['ignore', 'pipe', 'pipe'], timeout: RUN_TIMEOUT_MS });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((ok, fail) => {
    child.once('error', fail);
    child.once('close', (status, signal) => ok({ status, signal, stdout, stderr }));
  });
}

export interface ServiceProcess {
  readonly child: ChildProcess;
  readonly output: () => string;
  /**
   * Where the service listens, from its `ready` log line (start it with PORT=0 and LOG_LEVEL
   * info): the OS picks the port at bind, so no other process can take it between a port being
   * chosen and the service binding it, as with a port picked in advance.
   */
  url(): Promise<string>;
  /** SIGTERM, then the exit code (a graceful shutdown exits 0). */
  stop(): Promise<number | null>;
}

export function startProcess(app: string, env: NodeJS.ProcessEnv): ServiceProcess {
  const child = spawn(process.execPath, [entryOf(app), 'serve'], { env: { PATH: process.env['PATH'], ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let announced: (url: string) => void = () => undefined;
  const ready = new Promise<string>((ok) => (announced = ok));
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      output += `${line}\n`;
      const url = readyUrlOf(line);
      if (url) announced(url);
    });
  }
  // 'close' (after its output has ended), not 'exit': a failure names everything it printed.
  const exited = new Promise<number | null>((ok) => child.once('close', (code) => ok(code)));
  const url = Promise.race([ready, exited.then((code) => Promise.reject(new Error(`${app} exited (${code}) before it was ready:\n${output}`)))]);
  url.catch(() => undefined);
  return {
    child,
    output: () => output,
    url: () => url,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
