import type { ScenarioId } from './scenarios/scenario';

/**
 * Why a scenario misses its target: printed in RESULTS.md under any row that misses, with the
 * README section that has the profiles and the measurements behind each sentence. Issue #18 asks
 * every miss to say what was tried, what it measured, why the rest is out of reach on this design,
 * and which design change would reach it. Kept next to the generator so a run that misses always
 * says why; update it when a profile or a round of work changes the picture.
 */
export interface MissExplanation {
  /** What was done about it, and what each step measured. */
  readonly tried: string;
  /** Why the rest is not reachable with the design as it is. */
  readonly why: string;
  /** The design change that would reach the target (or why none is needed). */
  readonly design: string;
  /** The README section with the profiles and tables. */
  readonly profile: string;
  /** What differs for the embedded mode's row, where it does. */
  readonly embedded?: Partial<Omit<MissExplanation, 'embedded'>>;
}

/** The explanation of one row's miss: the scenario's, with its mode's own parts. */
export function missExplanation(id: ScenarioId, mode: string): MissExplanation | undefined {
  const explained = MISS_EXPLANATIONS[id];
  return explained && mode === 'embedded' ? { ...explained, ...explained.embedded } : explained;
}

export const MISS_EXPLANATIONS: Readonly<Partial<Record<ScenarioId, MissExplanation>>> = {
  S1: {
    tried:
      'the no-change answer from one primary-key read outside any transaction (ratio 0.09 -> 0.20); one NATS reply subscription per connection instead of an inbox per request, and NATS writes coalesced per event-loop turn (product CPU per poll 2.0-4.2 -> 0.84-1.5 ms at the same loads); a lean Express lane for the Sync API ahead of Nest\'s router (no CPU gain: dropped); in embedded mode the in-process hop already sends one JSON text each way',
    why: 'the framework floor in the notes (the same answer from the smallest Nest + Express app, no auth, no broker, no validation) shows what the design card\'s HTTP stack alone keeps of a bare server; the product adds to it the bearer check and the token cache, the rate limit, the route table, zod at the consumer, the correlation and metrics interceptors and, in cluster mode, a second process behind a NATS hop. On two shared cores every one of those is CPU the bare server never spends',
    design:
      'answer a poll in the gateway: keep each user\'s high-water mark in the gateway, fed by sync.evt.users-changed.v1 (already broadcast to every gateway replica for the push channel), and forward to sync only when the token is older than the mark or the mark is not known yet; read-your-writes across replicas needs the write\'s answer to carry its new mark to every gateway first (a barrier like the token revocation\'s) or the poll to go to sync for a short window after any write. Then the gateway on Fastify (@nestjs/platform-fastify; TOOLCHAIN.md measured 3.4x Nest + Express on this machine kind)',
    profile: 'README.md#the-slowest-path-s1-in-cluster-mode-ratio-009-019-against-the-05-target-020-after-the-first-fix',
    embedded: {
      why: 'the embedded product serves HTTP, every service and PGlite in one Node process, so on one core, where the baseline and the framework floor each run in a process of their own beside the embedded process\'s PGlite, on two: the floor keeps nearly all of the baseline (PGlite, which runs one statement at a time, bounds both), and the product\'s own work per poll (Express, passport, the in-process hop serialised both ways, Nest on both sides, zod) competes with PGlite for the one event loop',
      design: 'PGlite in a worker thread of the embedded process (its socket server there too), so the embedded mode uses two cores as the cluster does; then the same gateway-side answer to a poll as in cluster mode',
    },
  },
  S2: {
    tried: 'one transaction per request (was one per command), consecutive item_adds written by one INSERT, and no savepoints unless a command fails: a request of 100 adds went from about 1,100 SQL statements to 10 (ratio 0.02 -> 0.6-1.1)',
    why: 'the ratio hovers at 1.0 because the baseline is not a durable write: its 100 INSERTs go to a temporary table (no WAL, no indexes, no foreign keys) inside one bare transaction, where the product\'s one INSERT writes WAL, three indexes and two foreign-key checks per task, plus the command log, the temp ids and the high-water mark, and the request crosses HTTP and NATS',
    design: 'none in the product: the ratio measures the machine\'s WAL flush. On the AMD EPYC machines of earlier runs it was 0.95-1.1; on the Intel Xeon machine of the 2026-11-26 run the revision before that session\'s work (a5d23a7) measured 0.39 and the final one 0.40-0.52, the same. A baseline writing a logged table with the same indexes and one COMMIT would be the fair reference for "hold 1.0"',
    profile: 'README.md#s2-a-batch-of-100-commands-ratio-002-007-then-005-013-now-058-081-target-035',
  },
  S3: {
    tried:
      'one serialisation per hop (no second stringify of a reply); an answer over one NATS message travels as raw UTF-8 slices (was JSON text inside JSON strings, parsed twice); every resource of a full sync read with its timestamps formatted by PostgreSQL (tasks in issue #18, the rest in #31); the stats resource stepped through days without a Luxon DateTime each (20-30 ms of sync per full sync); tz_info with one Intl formatter per zone (sync\'s CPU per full sync 379 -> 158 -> 81-110 ms under load). Tried and backed out: the gateway writing the body as the bytes it came in (4-8 ms instead of 12-18 in isolation, but more GC in the cluster\'s gateway). Streaming the slices to HTTP as they arrive was measured (at most ~9 ms of a ~400 ms p50) and not built: it would lose the resend to another replica when one dies mid-answer',
    why: 'the product still builds a row object per row in the pg driver, renders every object into the dialect\'s shape and stringifies the answer (the baseline stringifies rows as they come, in one process), and the answer crosses NATS in 1 MB messages that the gateway\'s NATS client copies; on this shared 2-core machine the p50 follows the load as much as the code',
    design: 'let PostgreSQL build the JSON of the largest resources (json_agg of the api/v1 task and comment shapes), which takes the row objects, the writers and most of the stringify out of sync; then the gateway writing the bytes it receives, once its garbage collection in the cluster is understood',
    profile: 'README.md#s3-a-full-sync-of-a-large-account-ratio-24-37-across-runs-22-26-before-issue-18s-round-15-22-after-target-16',
  },
  S5: {
    tried:
      'one serialisation per hop, REST bodies framed as raw bytes, restV2Due without spreads, the zone check remembered, timestamps formatted in SQL (product CPU per request 73-90 -> 48-53 ms); the NATS changes of S1 (gateway -1 ms per request); then REST v2 task lists rendered once, by sync, with the REST v2 writer moved to @doable/contracts-rest so it stays one module, and passed through rest as text (rest 14-20 -> 5-8 ms per request), and the filter\'s due date read once per task instead of at each of its nine mentions in `today | overdue` (the filter query 20-22 -> 8-12 ms; PostgreSQL 2.7x -> 1.8x the baseline\'s): ratio 0.34-0.41 -> 0.47-0.54 interleaved. Tried and dropped: a correlated comment count (more PostgreSQL work), compact rows (no cheaper to parse)',
    why: 'sync is now the largest cost: the pg driver builds an object per row of ~1,000, the api/v1 writer runs before the REST v2 one (so the REST v2 shape stays defined over the one api/v1 task), and the list is serialised; PostgreSQL still checks archived projects per task, counts comments separately and reads the profile for the filter\'s context; the answer crosses two NATS hops where the baseline has one process',
    design: 'let PostgreSQL build the answer (json_agg of the REST v2 shape), which needs the REST v2 writer to generate its SQL and the due object\'s time-zone rules written in SQL; or let rest keep its own projection of tasks fed by sync\'s events and answer filters without asking sync',
    profile: 'README.md#s5-the-filter-language-through-rest-v2-ratio-019-042-before-the-third-round-041-056-after-047-054-after-the-fifth-target-06-since-issue-18',
  },
  S6: {
    tried: 'heap snapshots of the gateway at the start and end of S6 and a 600 s S6 with a GC log: no structure grows; the heap left after each full collection stayed at 32-36 MiB while RSS rose and levelled off (V8 sizing its heap to the allocation rate). S6 now judges the heap after a full collection, not RSS',
    why: 'a miss now means errors, or a service whose heap after a full collection rose at every sample: a real leak to look for with bench/src/heap-snapshot-diff.ts. The 503s seen only under heavy machine load were replica-lost from a starved process (see S13)',
    design: 'none: investigate the flagged service with two heap snapshots',
    profile: 'README.md#s6-does-the-gateway-leak-no',
  },
  S10: {
    tried: 'the file passes through the store once (the gateway writes where the record will point; the staging copy and its delete are gone): 0.09-0.14 -> about 0.2; the gateway\'s RSS stays within the bound (it never holds the file)',
    why: 'the store alone row in the notes (the same 50 MiB put into a JetStream Object Store bucket from the bench, no HTTP, no gateway, no record) shows how much of the bare stream to disk the cluster\'s default store keeps: every 128 KiB chunk is a JetStream publish acknowledged before the next, which nats-server writes to its file store; the product keeps most of the store\'s own speed, so the 0.3 guess sits above what this store can do here',
    design: 'for large files, a store without a per-chunk acknowledgement: the S3 driver (STORAGE_DRIVER=s3, multipart uploads in parallel parts) or a shared volume with the local driver; or pipeline the Object Store\'s chunk puts (several in flight) in the nats driver',
    profile: 'README.md#scenarios',
  },
  S12: {
    tried: 'the bench\'s own race fixed (it now waits until the app users\' tasks stop growing before counting deliveries): every row is delivered once, signed',
    why: 'on a quiet machine the latency meets both targets (webhook p99 about 1 s, push p99 under 0.2 s); beside other suites the p99s are the machine\'s stalls, and a delivery whose first attempt failed waits WEBHOOKS_RETRY_SECONDS (15 min)',
    design: 'a webhook worker woken by the consumer that makes the rows (instead of a 1 s poll) would take the p50 from half a poll to milliseconds',
    profile: 'README.md#scenarios',
  },
  S13: {
    tried: 'second replicas of gateway and sync started beside the first (one NATS queue group per service), and stopped mid-run: the work is shared evenly and no read fails',
    why: 'on 2 cores the one-replica cluster is already CPU-bound, so second replicas add processes (cold JIT, a second token cache, fewer messages per socket write) and no cores',
    design: 'none: replicas are for machines with cores to spare; the figure needs such a machine to show the gain',
    profile: 'README.md#s13-the-scale-figure-replicas-on-this-machine',
  },
};
