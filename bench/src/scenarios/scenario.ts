import type { BenchUser } from '../accounts';
import type { Cluster } from '../cluster';

export type ScenarioId = 'S1' | 'S2' | 'S3' | 'S4' | 'S5' | 'S6' | 'S7' | 'S8' | 'S9' | 'S10' | 'S11' | 'S12' | 'S13' | 'S14' | 'S15' | 'S16' | 'S17';

/** One line of the report: a measurement in one mode, or a scenario that cannot be measured yet. */
export interface ScenarioRow {
  readonly id: ScenarioId;
  /** `cluster` (one process per service, as deployed) or `embedded` (one process). */
  readonly mode: 'cluster' | 'embedded' | '-';
  readonly what: string;
  readonly status: 'measured' | 'pending' | 'failed';
  /** Product and baseline figures, by name (`req/s`, `p50 ms`, ...). */
  readonly product?: Readonly<Record<string, number>>;
  readonly baseline?: Readonly<Record<string, number>>;
  /** The figure the target is about, e.g. product req/s / baseline req/s. */
  readonly ratio?: { readonly name: string; readonly value: number };
  readonly target: string;
  readonly pass?: boolean;
  /** False when requests failed during the measurement: the figures are shown but do not count. */
  readonly valid?: boolean;
  readonly notes: readonly string[];
  /** Everything else worth keeping in the JSON (RSS, raw load results). */
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface BenchOptions {
  /** Seconds of each measured load run (after its warm-up). */
  readonly durationS: number;
  readonly warmupS: number;
  readonly mixedDurationS: number;
  readonly embedded: boolean;
  /** V8 CPU profiles of the gateway and sync processes (cluster mode). */
  readonly cpuProfile: boolean;
}

/** The running cluster with its users, started once and shared by the scenarios that need it. */
export interface ClusterFixture {
  readonly cluster: Cluster;
  readonly users: readonly BenchUser[];
}

export interface BenchContext {
  readonly runId: string;
  readonly options: BenchOptions;
  /** Where processes write V8 CPU profiles (`--cpu-prof`), or undefined. */
  readonly cpuProfileDir?: string;
  cluster(): Promise<ClusterFixture>;
  /** Stops the cluster (if started) so the embedded measurements have the machine to themselves. */
  releaseCluster(): Promise<void>;
}

export interface Scenario {
  readonly id: ScenarioId;
  readonly title: string;
  readonly target: string;
  /** Set while the product cannot do what the scenario measures: the row says what is missing. */
  readonly needs?: string;
  /** Cluster mode. Absent while `needs` is set: a pending scenario reports no figures at all. */
  readonly run?: (context: BenchContext) => Promise<ScenarioRow[]>;
  /** Embedded mode, run after every cluster measurement, with the cluster stopped. */
  readonly runEmbedded?: (context: BenchContext) => Promise<ScenarioRow[]>;
}

/** The row of a scenario that cannot be measured yet: no figures at all, only what it waits for. */
export function pendingRow(scenario: Scenario): ScenarioRow {
  return { id: scenario.id, mode: '-', what: scenario.title, status: 'pending', target: scenario.target, notes: [`not measurable yet: needs ${scenario.needs}`] };
}
