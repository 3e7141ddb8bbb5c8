/**
 * What the parent asks the load runner (its own process) to do, as plain JSON: functions
 * cannot cross a process boundary, so the runner builds the per-request logic from this.
 */
export interface PlanUser {
  readonly token: string;
  readonly syncToken: string;
}

interface PlanBase {
  readonly url: string;
  readonly path: string;
  readonly users: readonly PlanUser[];
  readonly connections: number;
  readonly durationS: number;
  /** A discarded first run: connections, JIT, caches and pools warm up before measuring. */
  readonly warmupS: number;
}

/** Every connection polls as fast as it can, going through all users (no-change incremental syncs). */
export interface PollPlan extends PlanBase {
  readonly kind: 'poll';
}

/**
 * Each connection is one client with its own user: one sync per second, carrying the sync
 * token from its previous answer, and every `writeEvery`-th sync also carries a write.
 */
export interface MixedPlan extends PlanBase {
  readonly kind: 'mixed';
  readonly writeEvery: number;
}

/** Every connection sends the same GET (`path` with its query) as the first user, as fast as it can. */
export interface GetPlan extends PlanBase {
  readonly kind: 'get';
  /** The answer must start with this (e.g. `[` for a JSON array): anything else is a bad answer. */
  readonly expectPrefix: string;
}

export type LoadPlan = PollPlan | MixedPlan | GetPlan;

export interface LoadResult {
  readonly durationS: number;
  readonly requests: number;
  readonly requestsPerSec: number;
  /** Milliseconds. */
  readonly latency: { readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number; readonly mean: number };
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  /** Mixed plans: writes sent, and writes whose command did not answer `ok`. */
  readonly writes: number;
  readonly writeErrors: number;
  /** Answers that were 2xx but not what the plan expects (a sync answer with a sync_token; a GET's prefix). */
  readonly badAnswers: number;
  /** The first few failed answers, `<status> <start of body>`. */
  readonly failureSamples: readonly string[];
}
