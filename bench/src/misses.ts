import type { ScenarioId } from './scenarios/scenario';

/**
 * Why a scenario misses its target: printed in RESULTS.md under any row that misses, with the
 * docs/performance section that has the profiles and the measurements behind each sentence. Issue #18 asks
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
  /** The docs/performance section with the profiles and tables, as a link from bench/RESULTS.md. */
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
  S14: {
    tried:
      "issue #35: the page reports the moment through a binding instead of a 10 ms DevTools poll; on a first visit Today is drawn from the filter endpoint's answer (due before: / due: today, 170 KiB) while the 3 MiB full sync runs, which the full sync then replaces. Alone (`-- S14 --cluster-only`, load average 3-6): p50 1,002-1,056 ms before, 657-762 ms after.",
    why: "a fresh Chromium renderer spends about a second of CPU right after its first page (a three-line page too), on the same two cores as gateway, rest, sync and PostgreSQL; the app's own work is about 0.4 s (script, 200 rows drawn). In the whole-suite run of 2026-11-28 the cluster itself answered twice as slowly by the time S14 ran (the full sync alone 717 ms, against 356 ms in S3 of the same run and 330 ms alone), right after S13's load and replicas, with other sessions' type checks beside it; with each scenario started on a quiet machine the next whole-suite run passed (641 ms p50).",
    design: 'each scenario now starts once the machine is quiet (machine-quiet.ts: below a quarter of the CPU for two seconds, at most a minute; the row notes say how it went); if the whole suite still misses, the first look could be sent alone and the full sync right after it, so the first look does not share the server.',
    profile: '../docs/performance/s14-web-app.md#s14-the-web-apps-first-load-2026-11-27',
  },
  S1: {
    tried:
      'the no-change answer from one primary-key read outside any transaction (ratio 0.09 -> 0.20); one NATS reply subscription per connection instead of an inbox per request, and NATS writes coalesced per event-loop turn (product CPU per poll 2.0-4.2 -> 0.84-1.5 ms at the same loads); a lean Express lane for the Sync API ahead of Nest\'s router (no CPU gain: dropped); in embedded mode the in-process hop already sends one JSON text each way. Issue #31: the gateway answers a repeated no-change poll itself (product 0.47 -> 0.82-0.93 of the framework floor in runs beside other suites; sync, NATS and PostgreSQL near 0 ms per poll)',
    why: 'issue #31 measures the cluster against the framework floor (the same answer from the smallest Nest + Express app): since the gateway answers a repeated no-change poll itself (gateway polls/, kept true by the users-moved barrier), a poll costs the gateway alone (0.3-0.35 ms against the floor\'s 0.3 ms of Nest + Express and 0.1 ms of PostgreSQL) and the rest is what the product adds on that stack: the bearer check (a SHA-256 per request and the principal cache), the rate limit, the route table, the metrics middleware and the answer\'s key',
    design: 'the gateway on Fastify (@nestjs/platform-fastify; TOOLCHAIN.md measured 3.4x Nest + Express on this machine kind), which the design card rules out today; or fewer per-request steps in the gateway (the rate limit and the principal cache in one lookup)',
    profile: '../docs/performance/s1-polling.md#the-slowest-path-s1-in-cluster-mode-ratio-009-019-against-the-05-target-020-after-the-first-fix',
    embedded: {
      tried:
        'PGlite, pglite-socket and the serialising proxy moved to a worker thread of the embedded process (issue #31), so the process uses two cores: the PGlite thread spends 0.54-0.85 ms per poll and the rest of the process 1.5-2.2 ms (runs at load 10-25, where the process had 2.4-4.4 ms per poll on one thread before)',
      why: 'the main thread is now the bound: HTTP, every service and the pg client on one event loop (Express, passport, the in-process hop serialised both ways, Nest on both sides, zod, and a writev per answer and per query, about 20% of its busy time), where the bare baseline, one pg connection in a process of its own, is bound by the round trip through the PGlite thread (0.33-0.37 ms of that thread per request). On a quiet machine that makes the product\'s ceiling about 1 / 1.5 ms against the baseline\'s ~1,200 req/s; beside other suites (load 10-25 on 2 cores) the product gets a third of a core and the ratio says more about the load than the design',
      design: 'the same gateway-side answer to a poll as in cluster mode (no hop to sync, no PGlite query for a poll at the mark), which removes most of the main thread\'s work per poll; then a Unix socket instead of loopback TCP between the services and the PGlite thread',
    },
  },
  S2: {
    tried:
      'one transaction per request (was one per command), consecutive item_adds written by one INSERT, and no savepoints unless a command fails: a request of 100 adds went from about 1,100 SQL statements to 10 (ratio 0.02 -> 0.6-1.1). Issue #31: a second row against a fair baseline (100 INSERTs and one COMMIT into a logged copy of sync.items with its 7 indexes and foreign keys to users-like and projects-like tables), and every statement of a request timed from PostgreSQL\'s log. Issue #48: consumers take events in batches (one transaction per batch, a claim and a savepoint per event, acked after COMMIT, both buses) and the relay publishes its batch at once: 304 -> 8-15 COMMITs per request of 100 adds (counted by S2), the consumers at rest 5-7 s after the last answer instead of 15-20 s; the ratio unmoved at load 19-20 (0.14-0.36 alternating), as the consumers\' work now falls inside the measured window. Second round of #48: one v2 object event per request (100 adds are one outbox row, one publish, one claim per consumer; v1 kept for a previous release) and the request\'s 14 statements down to 11: 532 -> 32 SQL statements and about 240 -> 110 CPU ms (all processes) per request, p50 78-98 -> 42-46 ms in three runs of four (load 6-13), ratio 0.11-0.33 -> 0.19-0.39. Third round: the consumers check the v2 event\'s envelope and each entry\'s head (type, ids, audience) and an entry whole only where they use it (uploads its comments, webhooks the entries that make a delivery, the activity log the kinds it keeps, less the objects), and sync stringifies the entries once (the JSON that sized them is what the outbox writer writes): the consumers\' parse per request in their profiles uploads 10.5 -> 6.1 ms, webhooks 9.6 -> 3.7 ms; most of it was V8 and zod warming up (a fresh process checking 22 messages: 7.6 ms each for the whole event, 3.7 for the heads; warm 1.4 and 0.9), and the cluster runs beside other work (load 6-22) moved by more than that either way: medians of 5 and 7 alternating runs, uploads 17 -> 15.5 and webhooks 16 -> 15 CPU ms per request, all processes 156.5 -> 150.5, ratio 0.30 -> 0.30',
    why: 'against the temporary table the ratio follows the machine\'s WAL flush (that baseline writes no WAL, keeps one index and checks no key). Against the fair baseline (100 INSERTs in one process over one connection: 29.8 ms p50 in the quiet whole-suite run of cf15135, where the product took 54 ms, 0.47), the product\'s request is an HTTP hop, a NATS hop each way, 11 round trips to PostgreSQL and sync\'s JavaScript between them (zod over the 100 commands, building the 100 entries with their api/v1 tasks, stringifying them for the outbox row). And the machine is busy for the whole of it: all processes together spent 107 CPU ms per request in that run (sync 44, the consumers and pollers of the other services 33, PostgreSQL 21), more than two cores give in 54 ms, so the previous request\'s relay and three consumers run on the cores the next request needs',
    design: 'less CPU per request across the machine, since it is CPU-bound, measured on warm processes (the 2 warm-up rounds leave every consumer cold for the measured 20: more warm-up rounds would measure what a deployment pays); then fewer round trips: the project\'s role and the plan\'s limits in one read, the high-water raise and its usersChanged row in one statement. Measured: the executor alone in one process (no HTTP, NATS or consumers) is 0.82 of the fair baseline (29.5 against 24.2 ms p50), and the cluster with its consumers at the lowest CPU priority 0.58, so the rest is the hops and what sync\'s own event loop does beside the next request (the relay, the activity log\'s consumer): that consumer out of sync\'s process, and consumers on cores of their own (a Kubernetes deployment\'s shape, not two shared cores)',
    profile: '../docs/performance/s2-batch.md#issue-48-third-round-consumers-read-only-their-entries-2026-11-29',
  },
  S3: {
    tried:
      'one serialisation per hop (no second stringify of a reply); an answer over one NATS message travels as raw UTF-8 slices (was JSON text inside JSON strings, parsed twice); every resource of a full sync read with its timestamps formatted by PostgreSQL (tasks in issue #18, the rest in #31); the stats resource stepped through days without a Luxon DateTime each (20-30 ms of sync per full sync); tz_info with one Intl formatter per zone (sync\'s CPU per full sync 379 -> 158 -> 81-110 ms under load); issue #48: PostgreSQL writes the tasks and comments of the answer (json text byte for byte), then keeps each task\'s and comment\'s api/v1 text in sync.items and sync.notes, written by triggers from the same renderers, so a full sync aggregates stored text (PostgreSQL 64-94 -> 40-62 ms per full sync, ratio 1.43-1.92 -> 1.11-1.63 in eight or nine runs each). Tried and backed out: the gateway writing the body as the bytes it came in (4-8 ms instead of 12-18 in isolation, but more GC in the cluster\'s gateway). Streaming the slices to HTTP as they arrive was measured (at most ~9 ms of a ~400 ms p50) and not built: it would lose the resend to another replica when one dies mid-answer',
    why: 'PostgreSQL still sorts and aggregates 2.7 MB of task text; the sync service writes the other resources and the envelope, and the answer crosses NATS in 1 MB messages that the gateway\'s NATS client copies; on this shared 2-core machine the p50 follows the load as much as the code',
    design: 'the tasks\' order read from an index instead of a sort of their texts, then the gateway writing the bytes it receives',
    profile: '../docs/performance/s3-full-sync.md#issue-48-round-each-tasks-text-kept-with-the-task-2026-11-29',
  },
  S5: {
    tried:
      'one serialisation per hop, REST bodies framed as raw bytes, timestamps formatted in SQL; REST v2 task lists rendered once, then written by PostgreSQL in one statement, byte for byte (issues #31, #48); --initial-old-space-size=128 for the gateway and rest (issue #31: full GCs after S1-S4); the filter\'s WHERE at the baseline\'s cost (live projects joined once, the due\'s shape checked at write time). Issue #48, tenth round: the comment count in one index scan of the chosen ids (a sub-select per task had priced the statement over jit_above_cost beside large accounts: 52-71 -> 8-9 ms of PostgreSQL per list), each task written by format() instead of ~50 ||, a stored due written from due_date_text (9.9 instead of 11.0 ms for S5 alone). Measured and left: a grouped count of all the user\'s comments (a short list pays for the whole history), LATERAL (the sub-select again), row_to_json (same bytes, slower), prepared statements (1 ms; embedded mode and filter shapes per connection). Then each task\'s REST v2 text kept in sync.items by a trigger (the comment count and link appended per request): PostgreSQL 13.0-15.0 -> 9.8-10.5 ms per request, ratio 0.48-0.74 -> 0.70-0.96 in five runs each',
    why: 'PostgreSQL spends about 10 ms per request against the baseline\'s 5-8 (the WHERE, the comment count, sorting and aggregating 580 KB of stored text, parsing and planning), and the answer crosses two NATS hops where the baseline has one process; on this shared machine the ratio swings 0.70-0.96',
    design: 'prepared statements for the list (parsing and planning, 1 ms per request), with a bound on the filter shapes each connection keeps and care for embedded mode\'s one backend',
    profile: '../docs/performance/s5-filter.md#issue-48-round-each-tasks-rest-v2-text-kept-with-the-task-2026-11-29',
  },
  S6: {
    tried: 'heap snapshots of the gateway at the start and end of S6 and a 600 s S6 with a GC log: no structure grows; the heap left after each full collection stayed at 32-36 MiB while RSS rose and levelled off (V8 sizing its heap to the allocation rate). S6 now judges the heap after a full collection, not RSS',
    why: 'a miss now means errors, or a service whose heap after a full collection rose at every sample: a real leak to look for with bench/src/heap-snapshot-diff.ts. The 503s seen only under heavy machine load were replica-lost from a starved process (see S13)',
    design: 'none: investigate the flagged service with two heap snapshots',
    profile: '../docs/performance/s6-memory.md#s6-does-the-gateway-leak-no',
  },
  S7: {
    tried:
      'issue #18: legacy dues without an Intl formatter per task, timestamps without Luxon (1.83 -> 1.09 alone). Issue #48 made the baseline faster, not v7 slower: the baseline is the product\'s own api/v1 full sync, whose tasks and comments PostgreSQL now aggregates from stored text. In the quiet whole-suite runs of cf15135 and 6350ccd2, v7 went from 188 to 169 ms p50 and api/v1 from 136 to 99 ms: 1.39 -> 1.71',
    why: 'v7 still reads its tasks as rows and writes them in JavaScript: its item carries members no row holds alone (the flat item_order and indent per project, from the task tree; labels as ids; the legacy due\'s date_string and due_date_utc), so the stored api/v1 text does not serve it',
    design: 'a stored v7 text per task like api/v1\'s, holding the members the row decides, with the tree\'s item_order and indent and the label ids appended at read time as note_count is; or a target stated against v7\'s own previous figure rather than a path that keeps getting faster',
    profile: '../docs/performance/s3-full-sync.md#issue-48-round-each-tasks-text-kept-with-the-task-2026-11-29',
  },
  S11: {
    tried: 'issue #48 (2026-11-29), the mcp service\'s per-call work, without changing a byte of any answer: one Ajv validator per process instead of one per request (each new McpServer built its own, for elicitation answers these tools never ask for), the tools\' zod object schemas made once per process with the SDK\'s own objectFromShape instead of ~90 per request, only the called tool registered for a tools/call, and the SDK\'s answer kept as bytes (no decode to text and encode again for NATS). In one process, the same call against a canned REST answer: 2.5-3.2 -> 0.8-1.4 CPU ms per call (6 alternating pairs). In the cluster, 4 alternating pairs beside other suites (load average 5-9): ratio medians 0.48 before -> 0.65 after; the mcp service 5.6 -> 3.5 CPU ms per call, or 0.84 -> 0.47 of the same run\'s REST read',
    why: 'what the mcp service still does per call is the answer itself: rest\'s 28 KB parsed and checked against its contract, the output written twice (the text block, then the SDK\'s JSON-RPC response holding it as structured content and as escaped text: 61 KB for 28 KB of tasks) and checked against the output schema, plus a NATS hop each way (the 61 KB answer\'s socket write is now the largest item in the service\'s profile, 18%, above the endpoint\'s own 12%) and a fresh McpServer and transport (the SDK\'s Protocol serves one transport and keys in-flight requests by JSON-RPC id, so a shared server cannot take concurrent stateless requests). A fixed cost of the hop still weighs more as the read beneath it gets cheaper',
    design: 'if the row misses again: write the structured content once and splice it into the response (JSON.rawJSON, not in Node 20, or a serialiser of our own in place of the SDK\'s for tools/call answers), which also halves what the gateway writes; or set the target from measured runs',
    profile: '../docs/performance/s11-mcp.md#issue-48-the-mcp-calls-per-call-cost-2026-11-29',
  },
  S10: {
    tried: 'the file passes through the store once (the gateway writes where the record will point; the staging copy and its delete are gone): 0.09-0.14 -> about 0.2; the gateway\'s RSS stays within the bound (it never holds the file). Issue #31: the nats driver\'s put keeps 8 chunk publishes in flight (object-store-put.ts, the library\'s format, read back by its get) instead of the library\'s one acknowledged chunk at a time: alternating runs beside other suites (load average 14-25): the store alone p50 45 MiB/s before (27-121, 0.13-0.30 of the bare stream), 114 after (55-165, 0.17-0.72); the product 0.14 before (0.08-0.31), 0.22 after (0.17-0.32); in one process, interleaved, the library 136 MiB/s and this put 170 (medians of 6)',
    why: 'the store is no longer a round trip per 128 KiB chunk; what is left is CPU on two shared cores: the gateway\'s HTTP parsing and hashing, nats-server writing its file store, and the bare stream it is compared with swinging from 144 to 517 MiB/s with the machine\'s load. Judge the row on a quiet machine, or by the store alone row beside it',
    design: 'for large files, a store without JetStream in the path: the S3 driver (STORAGE_DRIVER=s3, multipart uploads in parallel parts) or a shared volume with the local driver',
    profile: '../docs/performance/index.md#scenarios',
  },
  S12: {
    tried: 'the bench\'s own race fixed (it now waits until the app users\' tasks stop growing before counting deliveries): every row is delivered once, signed. Issue #31: the consumer wakes the delivery worker after its commit instead of leaving the rows to the 1 s poll: p50 from 782-1,122 ms to 86-388 ms in the same conditions (load average 16-27; p50 delivery over p50 of the write itself 3.1-4.8 before, 0.7-2.2 after), exactly once held (0 duplicates, every task one receipt)',
    why: 'no poll is left on the path: a delivery now takes the relay, the consumer\'s transaction, the claim, a read of the initiator\'s profile from sync, the signature from auth-oauth and the POST, each queued behind the S6 load; beside other suites its p99 is the machine\'s stalls (the write\'s own p99 is as long), and a delivery whose first attempt failed waits WEBHOOKS_RETRY_SECONDS (15 min)',
    design: 'none for the wait; on a loaded machine, fewer hops per first attempt (the initiator\'s profile carried in the event instead of read from sync)',
    profile: '../docs/performance/index.md#scenarios',
  },
  S13: {
    tried: 'second replicas of gateway and sync started beside the first (one NATS queue group per service), and stopped mid-run: the work is shared evenly and no read fails',
    why: 'on 2 cores the one-replica cluster is already CPU-bound, so second replicas add processes (cold JIT, a second token cache, fewer messages per socket write) and no cores',
    design: 'none: replicas are for machines with cores to spare; the figure needs such a machine to show the gain',
    profile: '../docs/performance/s13-scale.md#s13-the-scale-figure-replicas-on-this-machine',
  },
};
