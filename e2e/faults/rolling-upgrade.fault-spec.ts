import type { Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { waitFor } from '@doable/shared-testing';
import type { ServiceName } from '@doable/shared-runtime';
import {
  ALL_SERVICES,
  type ClusterProcesses,
  type ClusterProcessesOptions,
  createServiceReplica,
  ensureDatabase,
  migrateClusterDatabase,
  runApp,
  type ServiceReplica,
  startClusterProcesses,
} from '@doable/system';
import { REPO_ROOT } from '../support/processes';
import { WEB_ORIGIN } from '../support/push-client';
import { type BuiltRelease, buildRelease, latestRecordedRelease } from './previous-release';
import { type PrivateNats, type PrivatePostgres, startPrivateNats, startPrivatePostgres } from './private-servers';
import { SteadyWriters } from './steady-writers';
import { type Delivery, hookWriter, startReceiver, unusualDeliveries as unusualDeliveriesOf, webhookFigures } from './webhook-receiver';

/**
 * The rolling upgrade (issue #45): the previous release's cluster, built from its commit
 * (contracts/releases/commits.json), takes writes, a push socket and webhooks; HEAD's migration
 * step runs while it serves; then every service is replaced by HEAD's one replica at a time, in
 * README "Upgrading"'s order, as a Kubernetes rolling update does: the new replica starts and
 * is ready, the old one leaves the gateways' list (the Service's endpoints) and gets SIGTERM,
 * and the next step waits for its exit. A client retries a refused or closed connection on the
 * other gateway; any other failure counts. Asserted: 0 failed requests, 0 acknowledged writes
 * lost, 0 written twice, each write's webhook delivered once (by delivery id, as a receiver dedupes), the push socket only ever
 * told to go away (1001) and still fed afterwards, every old replica stopped on its own, and
 * each replica reporting the version it was built with.
 */

const HEAD_DIST = join(REPO_ROOT, 'dist');
const PLANS_FILE = join(REPO_ROOT, 'e2e', 'support', 'plans.e2e.json');
const WRITERS = 4;
/** The webhook app's owner, and a writer: each of its writes is one `item:added` delivery. */
const HOOKED_WRITER = 0;
/** The push socket's account (a writer: its own writes keep the socket busy). */
const PUSHED_WRITER = 1;
const REPLICAS: Partial<Record<ServiceName, number>> = { gateway: 2, sync: 2 };
const PASSWORD = 'rolling upgrade passphrase';
/** What the steady writers write (`w<writer>-<n>`): the probes are not theirs. */
const WRITTEN = /^w\d+-\d+$/;

/** Where the run is, as it goes (a hang then names its phase). */
const seconds = (ms: number) => Math.round(ms / 10) / 100;
const began = Date.now();
const progress = (line: string) => process.stdout.write(`rolling upgrade (${seconds(Date.now() - began)} s): ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const versionOf = (root: string) => (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

/** One replica slot of the deployment: what runs in it now, and whether the gateways' list names it. */
interface Slot {
  readonly service: ServiceName;
  readonly index: number;
  replica: ServiceReplica;
  version: string;
  serving: boolean;
}

interface StepFigures {
  readonly replica: string;
  readonly requests: number;
  /** Refused or closed connections, sent again to the other gateway. */
  readonly retried: number;
  readonly failed: number;
  /** From SIGTERM to the old replica's exit (measured, not asserted). */
  readonly stopS: number;
}

/** A push channel client as an app keeps it: on a close it reconnects to a gateway in the list. */
class ReconnectingPush {
  readonly closeCodes: number[] = [];
  connections = 0;
  syncNeeded: number[] = [];
  private socket: WebSocket | undefined;
  private running = true;

  constructor(
    private readonly gateways: () => readonly string[],
    private readonly token: string,
  ) {}

  async connect(): Promise<void> {
    for (let attempt = 0; this.running; attempt++) {
      const urls = this.gateways();
      const url = urls[attempt % urls.length];
      try {
        const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws`, { headers: { origin: WEB_ORIGIN, authorization: `Bearer ${this.token}` } });
        await new Promise((resolve, reject) => {
          socket.once('open', resolve);
          socket.once('error', reject);
        });
        this.connections++;
        this.socket = socket;
        socket.on('error', () => undefined);
        socket.on('message', (data: Buffer) => {
          if ((JSON.parse(data.toString()) as { type: string }).type === 'sync_needed') this.syncNeeded.push(Date.now());
        });
        socket.once('close', (code) => {
          if (!this.running) return;
          this.closeCodes.push(code);
          void this.connect();
        });
        return;
      } catch {
        await sleep(200);
      }
    }
  }

  get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  stop(): void {
    this.running = false;
    this.socket?.close();
  }
}

describe('rolling upgrade from the previous release to HEAD (cluster, real PostgreSQL and NATS)', () => {
  let release: BuiltRelease;
  let headVersion: string;
  let postgres: PrivatePostgres;
  let nats: PrivateNats;
  let oldCluster: ClusterProcesses | undefined;
  let env: NodeJS.ProcessEnv;
  let writers: SteadyWriters | undefined;
  let push: ReconnectingPush | undefined;
  let receiver: Server | undefined;
  const slots: Slot[] = [];
  const tokens: string[] = [];
  const deliveries: Delivery[] = [];
  /** Replicas that logged the end of a graceful stop (`stopped`, exit 0). */
  const stoppedCleanly = new Set<ServiceReplica>();
  /** Error lines any replica logged, shown when an assertion fails. */
  const errorLines: string[] = [];

  /** When each phase of the run began: a failed request is reported with the phase it fell in. */
  const phases: { readonly name: string; readonly at: number }[] = [];
  const phaseOf = (at: number) => phases.filter((phase) => phase.at <= at).pop()?.name ?? 'before the load';
  const gatewayUrls = () => slots.filter((slot) => slot.service === 'gateway' && slot.serving && slot.replica.url).map((slot) => slot.replica.url!);

  const options = (distDir: string): ClusterProcessesOptions => ({
    distDir,
    databaseUrl: postgres.url,
    natsUrl: nats.url,
    env,
    onLine: (replica, line) => {
      if (/"msg":"stopped"/.test(line)) stoppedCleanly.add(replica);
      if (/"level":(5|6)0/.test(line)) errorLines.push(`[${replica.label}] ${line.slice(0, 600)}`);
    },
  });

  async function health(replica: ServiceReplica): Promise<{ status: string; version: string }> {
    const response = await fetch(`${replica.url}/health/live`, { signal: AbortSignal.timeout(30_000) });
    return (await response.json()) as { status: string; version: string };
  }

  function syncRead(token: string, resourceTypes: string[]): Promise<Response> {
    return fetch(`${gatewayUrls()[0]}/api/v1/sync`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sync_token: '*', resource_types: resourceTypes }),
      signal: AbortSignal.timeout(30_000),
    });
  }

  /** An account made with the release's own CLI, once its profile exists. */
  async function createAccount(email: string, extra: string[] = []): Promise<string> {
    const { stdout } = await runApp(release.distDir, 'cli', ['create-account', '--email', email, '--name', 'Writer', ...extra], { ...env, LOG_LEVEL: 'warn' });
    const token = /API token: ([0-9a-f]{40})/.exec(stdout)?.[1];
    if (!token) throw new Error(`create-account printed no token: ${stdout}`);
    await waitFor(async () => (await syncRead(token, ['user'])).status === 200, `the profile of ${email}`, 60_000);
    return token;
  }

  /** Waits until a few more writes are acknowledged: the cluster as it now is serves them. */
  async function writesGoOn(what: string): Promise<void> {
    const count = writers!.figures.attempts.filter((attempt) => attempt.ok).length;
    await waitFor(() => writers!.figures.attempts.filter((attempt) => attempt.ok).length >= count + 2 * WRITERS, `writes to be acknowledged ${what}`, 60_000);
  }

  beforeAll(async () => {
    release = await buildRelease(latestRecordedRelease(), progress);
    headVersion = versionOf(REPO_ROOT);
    [postgres, nats] = await Promise.all([startPrivatePostgres(), startPrivateNats()]);
    env = {
      PATH: process.env['PATH'],
      DATABASE_URL: postgres.url,
      NATS_URL: nats.url,
      NATS_SUBJECT_PREFIX: 'rolling.',
      LOG_LEVEL: 'warn',
      OUTBOX_POLL_MS: '200',
      RATE_LIMIT_SYNC_REQUESTS: '0',
      RATE_LIMIT_REST_REQUESTS: '0',
      RATE_LIMIT_AUTH_REQUESTS: '0',
      PLANS_FILE,
      // The receiver is plain HTTP on 127.0.0.1.
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOKS_RETRY_SECONDS: '1',
      WEBHOOKS_POLL_MS: '200',
    };
    await ensureDatabase(postgres.url);
    // The previous release, as it was deployed: its own migration step, then its replicas.
    await migrateClusterDatabase({ distDir: release.distDir, databaseUrl: postgres.url, natsUrl: nats.url, env });
    progress(`starting release ${release.version}'s cluster`);
    oldCluster = await startClusterProcesses({ ...options(release.distDir), replicas: REPLICAS });
    for (const replica of oldCluster.replicas) slots.push({ service: replica.service, index: replica.index, replica, version: release.version, serving: true });
    progress('making the accounts');
    for (let writer = 0; writer < WRITERS; writer++) {
      tokens.push(await createAccount(`writer-${writer}@rolling.test`, writer === HOOKED_WRITER ? ['--password', PASSWORD] : []));
    }
    progress('accounts made; hooking the webhook app');
    const started = await startReceiver(deliveries);
    receiver = started.server;
    await hookWriter({ gatewayUrl: gatewayUrls()[0], email: `writer-${HOOKED_WRITER}@rolling.test`, password: PASSWORD, token: tokens[HOOKED_WRITER], receiverPort: started.port, deliveries, progress });
  }, 1_500_000);

  afterAll(async () => {
    push?.stop();
    await writers?.stop().catch(() => undefined);
    await Promise.all(slots.filter((slot) => slot.service === 'gateway').map((slot) => slot.replica.kill('SIGTERM')));
    await Promise.all(slots.map((slot) => slot.replica.kill('SIGTERM')));
    await oldCluster?.stop();
    await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
    await nats?.destroy();
    postgres?.destroy();
  }, 180_000);

  it('replaces every replica one at a time with no failed request, no lost or doubled write and each webhook once', async () => {
    for (const slot of slots) expect({ replica: slot.replica.label, version: (await health(slot.replica)).version }).toEqual({ replica: slot.replica.label, version: release.version });

    phases.push({ name: `release ${release.version} under load`, at: Date.now() });
    writers = new SteadyWriters(gatewayUrls, tokens);
    writers.start();
    push = new ReconnectingPush(gatewayUrls, tokens[PUSHED_WRITER]);
    await push.connect();
    await writesGoOn(`by release ${release.version}`);

    // Step 1 of the upgrade: HEAD's migrations, while the previous release serves (expand-only).
    progress("running HEAD's migrations");
    phases.push({ name: "HEAD's migrations", at: Date.now() });
    await migrateClusterDatabase({ distDir: HEAD_DIST, databaseUrl: postgres.url, natsUrl: nats.url, env });
    await writesGoOn("after HEAD's migrations");

    // Step 2: the services in the README's order (callers last), each replica in turn.
    const steps: StepFigures[] = [];
    const replaced: ServiceReplica[] = [];
    for (const { name: service } of ALL_SERVICES) {
      for (const slot of slots.filter((candidate) => candidate.service === service)) {
        const old = slot.replica;
        const stepStarted = Date.now();
        progress(`replacing ${old.label}`);
        phases.push({ name: `replacing ${old.label}`, at: stepStarted });
        const next = createServiceReplica(options(HEAD_DIST), service, slot.index);
        await next.start();
        expect({ replica: next.label, version: (await health(next)).version }).toEqual({ replica: next.label, version: headVersion });
        // The new replica takes its place in the list (a gateway's clients see it), the old one leaves it, then gets SIGTERM.
        slots.splice(slots.indexOf(slot), 1, { service, index: slot.index, replica: next, version: headVersion, serving: true });
        const signalledAt = Date.now();
        await old.kill('SIGTERM');
        const stopS = seconds(Date.now() - signalledAt);
        replaced.push(old);
        await writesGoOn(`after replacing ${old.label}`);
        const during = writers.figures.attempts.filter((attempt) => attempt.sentAt >= stepStarted);
        steps.push({ replica: old.label, requests: during.length, retried: during.filter((attempt) => attempt.refused).length, failed: during.filter((attempt) => !attempt.ok && !attempt.refused).length, stopS });
      }
    }
    for (const slot of slots) expect(slot.version).toBe(headVersion);
    phases.push({ name: 'HEAD under load', at: Date.now() });

    // The push socket still hears of its account's writes, on a gateway of HEAD.
    await waitFor(() => push!.open, 'the push socket to be connected after the upgrade', 30_000);
    const heardBefore = push.syncNeeded.length;
    await waitFor(() => push!.syncNeeded.length > heardBefore, 'a sync_needed on the push socket after the upgrade', 30_000);

    await writers.stop();
    push.stop();

    // What each writer finds in its account afterwards, against what it was told was written.
    let acknowledged = 0;
    let lost = 0;
    let duplicated = 0;
    let unacknowledged = 0;
    for (let writer = 0; writer < WRITERS; writer++) {
      const response = await syncRead(tokens[writer], ['items']);
      expect(response.status).toBe(200);
      const { items } = (await response.json()) as { items: { content: string }[] };
      const counts = new Map<string, number>();
      for (const item of items.filter((candidate) => WRITTEN.test(candidate.content))) counts.set(item.content, (counts.get(item.content) ?? 0) + 1);
      const acked = new Set(writers.figures.acknowledged.get(writer));
      acknowledged += acked.size;
      lost += [...acked].filter((content) => !counts.has(content)).length;
      duplicated += [...counts.values()].filter((count) => count > 1).length;
      unacknowledged += [...counts.keys()].filter((content) => !acked.has(content)).length;
    }

    // Webhooks: once every delivery is final (none pending), each hooked write was delivered once.
    // The same delivery id again (reported, not asserted): the previous release's webhooks replica
    // stopped while its POST was under way and left the answer unrecorded (HEAD's workers finish
    // what they began before a stop: DeliveryWorker.beforeApplicationShutdown); a receiver drops it by its id.
    const unusualDeliveries = await unusualDeliveriesOf(postgres.url);
    const hooked = writers.figures.acknowledged.get(HOOKED_WRITER)!;
    const webhooks = webhookFigures(hooked, deliveries);

    const attempts = writers.figures.attempts;
    const failed = attempts.filter((attempt) => !attempt.ok && !attempt.refused);
    const summary = {
      from: `${release.version} (${release.commit.slice(0, 7)})`,
      to: headVersion,
      requests: attempts.length,
      retriedRefused: attempts.filter((attempt) => attempt.refused).length,
      failed: failed.length,
      acknowledged,
      lost,
      duplicated,
      unacknowledged,
      webhooks,
      push: { connections: push.connections, closeCodes: push.closeCodes, syncNeeded: push.syncNeeded.length },
    };
    process.stdout.write(
      [
        '',
        'rolling upgrade figures',
        `  ${JSON.stringify(summary)}`,
        '  replaced        requests  retried  failed  stop s',
        ...steps.map((step) => `  ${step.replica.padEnd(16)}${String(step.requests).padStart(8)}${String(step.retried).padStart(9)}${String(step.failed).padStart(8)}${step.stopS.toFixed(2).padStart(8)}`),
        ...(unusualDeliveries.length ? ['  deliveries not delivered at the first attempt:', ...unusualDeliveries.map((row) => `    ${JSON.stringify(row)}`)] : []),
        ...(errorLines.length ? ['  error lines logged:', ...errorLines.slice(0, 20).map((line) => `    ${line}`)] : []),
        '',
      ].join('\n'),
    );

    expect(failed.map((attempt) => `writer ${attempt.writer}: HTTP ${attempt.status} ${attempt.reason ?? ''} after ${seconds(attempt.answeredAt - attempt.sentAt)} s, ${phaseOf(attempt.sentAt)}`)).toEqual([]);
    expect(writers.figures.commandErrors).toEqual([]);
    expect({ lost, duplicated, unacknowledged }).toEqual({ lost: 0, duplicated: 0, unacknowledged: 0 });
    expect({ ...webhooks, sameIdAgain: undefined }).toEqual({ writes: hooked.length, delivered: hooked.length, missing: 0, twice: 0, sameIdAgain: undefined, unexpected: 0 });
    // Only the gateways' graceful stop closes a push socket, and it says "going away".
    expect(push.closeCodes.filter((code) => code !== 1001)).toEqual([]);
    // Every old replica finished its graceful stop itself (its deadline, or the launcher's SIGKILL, would not log `stopped`).
    expect(replaced.filter((replica) => !stoppedCleanly.has(replica)).map((replica) => replica.label)).toEqual([]);
  }, 1_800_000);
});
