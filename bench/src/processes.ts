import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** This file runs from dist/bench/src (the suite only runs compiled), so dist/ is two levels up. */
export const DIST_ROOT = resolve(__dirname, '..', '..');
export const REPO_ROOT = resolve(DIST_ROOT, '..');

/** The compiled entry of an app: the same file a container runs. */
export function appEntry(app: string): string {
  return checked(join(DIST_ROOT, 'apps', app, 'src', 'main.js'));
}

/** A compiled helper of the suite itself (load runner, baseline servers, embedded host). */
export function benchEntry(relativePath: string): string {
  return checked(join(__dirname, relativePath));
}

function checked(path: string): string {
  if (!existsSync(path)) throw new Error(`${path} is missing: \`npm run bench\` builds it first`);
  return path;
}

export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  readonly pid: number;
  /** stdout and stderr interleaved, the last 64 KiB only (a long run must not grow the parent). */
  output(): string;
  readonly exited: Promise<number | null>;
  /** SIGTERM, SIGKILL after the grace period; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

const OUTPUT_LIMIT = 64 * 1024;
/** Every child this process started, so a failure or Ctrl-C can still stop them all. */
const running = new Set<Child>();
/** Set once the run is being torn down: nothing new may start after that. */
let closing = false;

// The last resort, synchronous: whatever is still running when this process exits is killed.
process.on('exit', () => {
  for (const child of running) child.process.kill('SIGKILL');
});

/**
 * Starts `node <entry> ...args` with only the environment given (plus PATH): a service must
 * not inherit settings from the shell that runs the suite.
 */
export function spawnNode(name: string, entry: string, args: readonly string[], env: NodeJS.ProcessEnv, options: { stdin?: string; nodeArgs?: readonly string[] } = {}): Child {
  if (closing) throw new Error(`not starting ${name}: the run is stopping`);
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), entry, ...args], {
    env: { PATH: process.env['PATH'], ...env },
    stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) throw new Error(`could not start ${name}`);
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > OUTPUT_LIMIT) output = output.slice(-OUTPUT_LIMIT);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  const exited = new Promise<number | null>((ok) => child.once('exit', (code, signal) => ok(code ?? (signal ? 128 : null))));
  const handle: Child = {
    name,
    process: child,
    pid: child.pid,
    output: () => output,
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      running.delete(handle);
      return exited;
    },
  };
  running.add(handle);
  void exited.then(() => running.delete(handle));
  return handle;
}

/** Runs a child to completion within a bound; rejects with its output when it fails. */
export async function runToCompletion(name: string, entry: string, args: readonly string[], env: NodeJS.ProcessEnv, boundMs = 60_000): Promise<string> {
  const child = spawnNode(name, entry, args, env);
  const timer = setTimeout(() => void child.stop(2_000), boundMs);
  const code = await child.exited;
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${name} exited with ${code}: ${child.output()}`);
  return child.output();
}

/** Stops every child still running, newest first (the gateway before the services it calls). */
export async function stopAllChildren(): Promise<void> {
  closing = true;
  for (const child of [...running].reverse()) await child.stop(5_000);
}
