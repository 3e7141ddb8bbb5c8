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
  /** Several gateways (S13's replicas): the connections are dealt out over them in turn, `url` ignored. */
  readonly urls?: readonly string[];
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

/** Every connection sends the same request (S11: an MCP tool call, or its REST twin), as fast as it can. */
export interface RequestPlan extends PlanBase {
  readonly kind: 'request';
  readonly method: 'GET' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** A 2xx answer must contain this text: anything else is a bad answer. */
  readonly expectIncludes: string;
}

/**
 * S13's replica stop: no-change syncs as in a poll plan, but each connection is a client behind a
 * load balancer (not autocannon, which keeps reconnecting to a gateway that has gone): a request
 * whose connection fails (refused, reset before an answer) is sent again to the next gateway,
 * as a balancer's retry of an idempotent read would. Those retries are counted on their own.
 */
export interface FailoverPlan extends PlanBase {
  readonly kind: 'failover';
}

export type LoadPlan = PollPlan | MixedPlan | GetPlan | RequestPlan | FailoverPlan;

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
  /** Failover plans: requests sent again to another gateway after their connection failed. */
  readonly retriedElsewhere?: number;
  /** CPU ms the load generator itself spent in the measured run: on a shared machine it competes with what it measures. */
  readonly generatorCpuMs?: number;
}
