import type { Logger } from '@doable/shared-logging';

/**
 * A service that starts while its database or NATS is unreachable (a restart during an outage,
 * a node that boots before PostgreSQL) waits for them instead of exiting: exiting would only
 * hand the same wait to a supervisor, and a supervisor that gives up takes the service down for
 * good. Attempts back off exponentially up to a cap, with jitter so that every replica of a
 * cluster does not knock at the same instant when the database comes back.
 */
export interface StartBackoffOptions {
  readonly initialMs?: number;
  readonly maxMs?: number;
  /** [0, 1); Math.random unless a test fixes it. */
  readonly random?: () => number;
}

/** The wait after failed attempt `attempt` (1-based): half the step fixed, half random ("equal jitter"). */
export function startRetryDelay(attempt: number, options: StartBackoffOptions = {}): number {
  const initial = options.initialMs ?? 500;
  const max = options.maxMs ?? 10_000;
  const step = Math.min(max, initial * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
  return Math.round(step / 2 + (options.random ?? Math.random)() * (step / 2));
}

export type DependencyName = 'database' | 'broker';

export interface StartDependency {
  readonly name: DependencyName;
  /** host:port, never the URL (it may carry a password). */
  readonly target: string;
  probe(): Promise<void>;
}

/** What the service waits for now; what `/health/ready` says before the app is built. */
export class StartupState {
  private readonly down = new Map<DependencyName, string>();
  private readonly known = new Set<DependencyName>();

  markUp(name: DependencyName): void {
    this.known.add(name);
    this.down.delete(name);
  }

  markDown(name: DependencyName, reason: string): void {
    this.known.add(name);
    this.down.set(name, reason);
  }

  get checks(): Record<string, 'up' | 'down' | 'unknown'> {
    const checks: Record<string, 'up' | 'down' | 'unknown'> = {};
    for (const name of ['broker', 'database'] as const) if (this.known.has(name)) checks[name] = this.down.has(name) ? 'down' : 'up';
    return checks;
  }

  get reason(): string {
    const waiting = [...this.down].map(([name, reason]) => `${name} unreachable (${reason})`);
    return waiting.length ? `starting: ${waiting.join('; ')}` : 'starting';
  }
}

/** host:port of a connection URL, without user, password or database. */
export function targetOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname;
  } catch {
    return 'unparseable URL';
  }
}

/** An error's code and message, with anything that looks like credentials in a URL masked. */
export function describeStartError(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  const text = typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
  return text.replace(/(\/\/[^:/@\s]*:)[^@\s]*@/g, '$1***@').slice(0, 300);
}

export interface WaitForDependenciesOptions {
  readonly logger: Logger;
  readonly state: StartupState;
  readonly backoff?: StartBackoffOptions;
  /** Stops waiting (SIGTERM while starting): the promise rejects. */
  readonly signal?: AbortSignal;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Probes every dependency until all answer in one round; one warning per failed round (not
 * per dependency, not per second) with the attempt, the wait before the next, and why.
 */
export async function waitForDependencies(dependencies: readonly StartDependency[], options: WaitForDependenciesOptions): Promise<number> {
  const sleep = options.sleep ?? sleepUnlessAborted;
  for (let attempt = 1; ; attempt++) {
    if (options.signal?.aborted) throw new Error('stopped while waiting for dependencies');
    const failures: { dependency: string; target: string; error: string }[] = [];
    for (const dependency of dependencies) {
      try {
        await dependency.probe();
        options.state.markUp(dependency.name);
      } catch (err) {
        const error = describeStartError(err);
        options.state.markDown(dependency.name, error);
        failures.push({ dependency: dependency.name, target: dependency.target, error });
      }
    }
    if (failures.length === 0) {
      if (attempt > 1) options.logger.info({ attempts: attempt }, 'dependencies reachable; starting');
      return attempt;
    }
    const retryInMs = startRetryDelay(attempt, options.backoff);
    options.logger.warn({ attempt, retryInMs, unreachable: failures }, 'dependencies unreachable at start; retrying');
    await sleep(retryInMs, options.signal);
  }
}
