import { RestartBackoff, type RestartBackoffOptions } from './restart-backoff';

/** What the supervisor needs of a replica (ServiceReplica has it). */
export interface SupervisedReplica {
  readonly label: string;
  readonly pid: number | undefined;
  readonly running: boolean;
  start(): Promise<void>;
}

export interface ReplicaSupervisorOptions {
  readonly backoff?: RestartBackoffOptions;
  /** One line for the operator per decision. */
  readonly report: (line: string) => void;
  readonly now?: () => number;
  readonly setTimer?: (run: () => void, ms: number) => NodeJS.Timeout;
}

/**
 * Restarts replicas that exit without being told to, each with its own backoff, for as long as
 * it takes: one replica that cannot start (its database is down) never stops the others, and
 * comes back by itself once it can. A replica that starts but does not report ready in time is
 * left running, as Kubernetes leaves an unready pod: it keeps retrying its dependencies itself.
 */
export class ReplicaSupervisor {
  private readonly backoffs = new Map<string, RestartBackoff>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  private readonly now: () => number;
  private readonly setTimer: (run: () => void, ms: number) => NodeJS.Timeout;

  constructor(private readonly options: ReplicaSupervisorOptions) {
    this.now = options.now ?? Date.now;
    this.setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
  }

  /** Marks a replica's (first) start, so a crash soon after it counts as one in a row. */
  started(replica: SupervisedReplica): void {
    this.backoffOf(replica).started(this.now());
  }

  /** A replica exited unexpectedly: schedules its restart. */
  exited(replica: SupervisedReplica, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.stopped) return;
    const backoff = this.backoffOf(replica);
    const delay = backoff.exited(this.now());
    this.options.report(`${replica.label} exited (${signal ?? `code ${code}`}); restarting it in ${delay / 1000} s (${backoff.crashes} in a row)`);
    const timer = this.setTimer(() => {
      this.timers.delete(timer);
      this.restart(replica);
    }, delay);
    this.timers.add(timer);
  }

  /** No more restarts (the cluster is stopping). */
  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private restart(replica: SupervisedReplica): void {
    if (this.stopped || replica.running) return;
    this.backoffOf(replica).started(this.now());
    replica.start().then(
      () => {
        if (!this.stopped) this.options.report(`${replica.label} is back (pid ${replica.pid})`);
      },
      (err: unknown) => {
        // An exit during the start was reported to exited() already, which scheduled the next try.
        if (this.stopped || !replica.running) return;
        this.options.report(`${replica.label} runs but is not ready (${(err as Error).message}); leaving it to retry its dependencies`);
      },
    );
  }

  private backoffOf(replica: SupervisedReplica): RestartBackoff {
    let backoff = this.backoffs.get(replica.label);
    if (!backoff) this.backoffs.set(replica.label, (backoff = new RestartBackoff(this.options.backoff)));
    return backoff;
  }
}
