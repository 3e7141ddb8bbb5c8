import type { Server } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gatewayRegistryBucket } from '@doable/contracts-common';
import { type PrivateNatsCluster, type PrivateNatsNode, startPrivateNatsCluster, waitFor } from '@doable/shared-testing';
import { streamNameFor } from '@doable/shared-transport';
import { type ClusterProcesses, ensureDatabase, migrateClusterDatabase, runApp, startClusterProcesses } from '@doable/system';
import { REPO_ROOT } from '../support/processes';
import { type PrivatePostgres, startPrivatePostgres } from './private-servers';
import { settledEvents } from './settled-events';
import { SteadyWriters } from './steady-writers';
import { type Delivery, hookWriter, startReceiver, unusualDeliveries as unusualDeliveriesOf, webhookFigures } from './webhook-receiver';

/**
 * A three-node NATS cluster under the system (issue #48): the event stream and the key-value
 * buckets with three copies (NATS_REPLICAS=3), every service given the three servers
 * (NATS_URL as a list). Under steady writers (2 gateways, 2 sync replicas, sync commands with
 * uuids, retried as clients retry), one NATS node is killed with SIGKILL: first the event
 * stream's leader, then the gateway registry bucket's leader; each is restarted and caught up
 * before the next. Asserted: every acknowledged write stored once (0 lost, 0 duplicated, none
 * stored that was not acknowledged), no per-command error, every outbox drained and every
 * consumer caught up, each task's `added` activity logged once, and the hooked writer's webhook
 * delivered once per write. Times (the new leader, the writers' pause) are measured and printed,
 * not asserted.
 */

const DIST = join(REPO_ROOT, 'dist');
const PLANS_FILE = join(REPO_ROOT, 'e2e', 'support', 'plans.e2e.json');
const PREFIX = 'natscluster.';
const STREAM = streamNameFor(PREFIX);
const REGISTRY_STREAM = `KV_${gatewayRegistryBucket(PREFIX)}`;
const WRITERS = 6;
/** The webhook app's owner, and a writer: each of its writes is one `item:added` delivery. */
const HOOKED_WRITER = 0;
const PASSWORD = 'nats cluster passphrase';
/** How long a node stays down while the writers go on. */
const DOWN_MS = 5_000;
/** What the steady writers write (`w<writer>-<n>`): the hook probes are not theirs. */
const WRITTEN = /^w\d+-\d+$/;

const seconds = (ms: number) => Math.round(ms / 10) / 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const began = Date.now();
const progress = (line: string) => process.stdout.write(`nats cluster (${seconds(Date.now() - began)} s): ${line}\n`);

interface KillFigures {
  readonly fault: string;
  readonly node: string;
  /** The stream's leader after the kill (a new one when the killed node led it). */
  readonly newLeader: string;
  /** From the kill until the cluster named a leader on another node. */
  readonly leaderS: number;
  readonly requests: number;
  readonly failed: number;
  readonly answered503: number;
  readonly connectionErrors: number;
  readonly slowestRequestS: number;
  /** From the kill to the first acknowledged write after the last failed one (0: none failed). */
  readonly disturbedS: number;
  /** From the restart until the node's copies were current again. */
  readonly catchUpS: number;
}

describe('a NATS node killed under steady writers (3-node NATS cluster, R3)', () => {
  let postgres: PrivatePostgres;
  let nats: PrivateNatsCluster;
  let cluster: ClusterProcesses;
  let writers: SteadyWriters | undefined;
  let receiver: Server | undefined;
  let env: NodeJS.ProcessEnv;
  const tokens: string[] = [];
  const deliveries: Delivery[] = [];
  const figures: KillFigures[] = [];
  const errorLines: string[] = [];

  const gateway = () => cluster.gatewayUrls[0];

  function syncRead(token: string, resourceTypes: string[]): Promise<Response> {
    return fetch(`${gateway()}/api/v1/sync`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sync_token: '*', resource_types: resourceTypes }),
      signal: AbortSignal.timeout(30_000),
    });
  }

  async function cliAccount(email: string, extra: string[] = []): Promise<string> {
    const { stdout } = await runApp(DIST, 'cli', ['create-account', '--email', email, '--name', 'Writer', ...extra], { ...env, LOG_LEVEL: 'warn' });
    const token = /API token: ([0-9a-f]{40})/.exec(stdout)?.[1];
    if (!token) throw new Error(`create-account printed no token: ${stdout}`);
    await waitFor(async () => (await syncRead(token, ['user'])).status === 200, `the profile of ${email}`, 60_000);
    return token;
  }

  /** Waits until a few more writes are acknowledged, sent after `since`. */
  async function writesGoOn(what: string, since = Date.now()): Promise<void> {
    await waitFor(() => writers!.figures.attempts.filter((attempt) => attempt.ok && attempt.sentAt >= since).length >= 2 * WRITERS, `writes to be acknowledged ${what}`, 120_000);
  }

  /**
   * Kills the node leading `stream` with SIGKILL while the writers write, keeps it down DOWN_MS,
   * starts it again and waits until every copy is current once more.
   */
  async function killLeaderOf(fault: string, stream: string): Promise<void> {
    const node: PrivateNatsNode = await nats.leaderOf(stream);
    progress(`${fault}: SIGKILL ${node.name}`);
    const killedAt = Date.now();
    await node.stop('SIGKILL');
    const newLeader = await waitFor(async () => {
      const leader = await nats.leaderOf(stream);
      return leader.name !== node.name ? leader : undefined;
    }, `a new leader of ${stream}`, 60_000);
    const leaderS = seconds(Date.now() - killedAt);
    await writesGoOn(`with ${node.name} down`, killedAt);
    await sleep(Math.max(0, DOWN_MS - (Date.now() - killedAt)));
    const restartedAt = Date.now();
    await node.start();
    await waitFor(async () => (await nats.streamCurrent(STREAM, 3)) && (await nats.streamCurrent(REGISTRY_STREAM, 3)), `${node.name}'s copies to be current again`, 120_000);
    const catchUpS = seconds(Date.now() - restartedAt);
    await writesGoOn(`after ${node.name} came back`);
    const during = writers!.figures.attempts.filter((attempt) => attempt.sentAt >= killedAt);
    const failed = during.filter((attempt) => !attempt.ok);
    const lastFailure = failed.reduce((latest, attempt) => Math.max(latest, attempt.answeredAt), 0);
    const backAt = lastFailure ? (during.find((attempt) => attempt.ok && attempt.answeredAt > lastFailure)?.answeredAt ?? Date.now()) : killedAt;
    figures.push({
      fault,
      node: node.name,
      newLeader: newLeader.name,
      leaderS,
      requests: during.length,
      failed: failed.length,
      answered503: during.filter((attempt) => attempt.status === 503).length,
      connectionErrors: during.filter((attempt) => attempt.status === 0).length,
      slowestRequestS: seconds(Math.max(0, ...during.map((attempt) => attempt.answeredAt - attempt.sentAt))),
      disturbedS: seconds(backAt - killedAt),
      catchUpS,
    });
  }

  beforeAll(async () => {
    [postgres, nats] = await Promise.all([startPrivatePostgres(), startPrivateNatsCluster('faults-nats')]);
    progress(`NATS cluster up: ${nats.nodes.map((node) => node.name).join(', ')}`);
    env = {
      PATH: process.env['PATH'],
      DATABASE_URL: postgres.url,
      NATS_URL: nats.url,
      NATS_REPLICAS: '3',
      NATS_SUBJECT_PREFIX: PREFIX,
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
    await migrateClusterDatabase({ distDir: DIST, databaseUrl: postgres.url, natsUrl: nats.url, env });
    cluster = await startClusterProcesses({
      distDir: DIST,
      databaseUrl: postgres.url,
      natsUrl: nats.url,
      env,
      replicas: { gateway: 2, sync: 2 },
      onLine: (replica, line) => {
        if (/"level":(5|6)0/.test(line)) errorLines.push(`[${replica.label}] ${line.slice(0, 600)}`);
      },
    });
    progress('system up; making the accounts');
    for (let writer = 0; writer < WRITERS; writer++) tokens.push(await cliAccount(`writer-${writer}@nats-cluster.test`, writer === HOOKED_WRITER ? ['--password', PASSWORD] : []));
    const started = await startReceiver(deliveries);
    receiver = started.server;
    await hookWriter({ gatewayUrl: gateway(), email: `writer-${HOOKED_WRITER}@nats-cluster.test`, password: PASSWORD, token: tokens[HOOKED_WRITER], receiverPort: started.port, deliveries, progress });
  }, 600_000);

  afterAll(async () => {
    await writers?.stop().catch(() => undefined);
    await cluster?.stop();
    await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
    await nats?.destroy();
    postgres?.destroy();
  }, 180_000);

  it('loses no acknowledged write, stores none twice, and delivers each event once', async () => {
    // The setting reached JetStream: the stream and the registry bucket have their three copies.
    expect(await nats.streamCurrent(STREAM, 3)).toBe(true);
    expect(await nats.streamCurrent(REGISTRY_STREAM, 3)).toBe(true);

    writers = new SteadyWriters(() => cluster.gatewayUrls, tokens);
    writers.start();
    await writesGoOn('before any fault');

    await killLeaderOf('SIGKILL the event stream leader', STREAM);
    await killLeaderOf('SIGKILL the gateway registry (KV) leader', REGISTRY_STREAM);

    await writers.stop();
    progress('writers stopped; counting');

    // What every writer finds in its account, against what it was told was written.
    let acknowledged = 0;
    let lost = 0;
    let duplicated = 0;
    let unacknowledged = 0;
    const taskIds: string[] = [];
    for (let writer = 0; writer < WRITERS; writer++) {
      const response = await syncRead(tokens[writer], ['items']);
      expect(response.status).toBe(200);
      const { items } = (await response.json()) as { items: { id: string; content: string }[] };
      const written = items.filter((item) => WRITTEN.test(item.content));
      taskIds.push(...written.map((item) => item.id));
      const counts = new Map<string, number>();
      for (const item of written) counts.set(item.content, (counts.get(item.content) ?? 0) + 1);
      const acked = new Set(writers.figures.acknowledged.get(writer));
      acknowledged += acked.size;
      lost += [...acked].filter((content) => !counts.has(content)).length;
      duplicated += [...counts.values()].filter((count) => count > 1).length;
      unacknowledged += [...counts.keys()].filter((content) => !acked.has(content)).length;
    }

    // Every outbox drained into the stream, every consumer caught up, each task's `added`
    // activity logged once (sync's consumer), each hooked write delivered once (webhooks').
    const { unpublished, activity } = await settledEvents(postgres.url, nats.url, STREAM, taskIds);
    const unusualDeliveries = await unusualDeliveriesOf(postgres.url);
    const webhooks = webhookFigures(writers.figures.acknowledged.get(HOOKED_WRITER)!, deliveries);

    const attempts = writers.figures.attempts;
    const summary = {
      natsNodes: nats.nodes.length,
      replicas: 3,
      writers: WRITERS,
      requests: attempts.length,
      retried: attempts.filter((attempt) => !attempt.ok).length,
      acknowledged,
      lost,
      duplicated,
      unacknowledged,
      commandErrors: writers.figures.commandErrors.length,
      unpublishedEvents: unpublished,
      activity,
      webhooks,
    };
    const report = [
      '',
      'nats cluster fault figures',
      `  ${JSON.stringify(summary)}`,
      '  fault                                      node              new leader      leader s  requests  failed  503s  conn.err  slowest s  disturbed s  catch-up s',
      ...figures.map(
        (entry) =>
          `  ${entry.fault.padEnd(43)}${entry.node.padEnd(18)}${entry.newLeader.padEnd(16)}${entry.leaderS.toFixed(2).padStart(8)}${String(entry.requests).padStart(10)}${String(entry.failed).padStart(8)}${String(entry.answered503).padStart(6)}${String(entry.connectionErrors).padStart(10)}${entry.slowestRequestS.toFixed(2).padStart(11)}${entry.disturbedS.toFixed(2).padStart(13)}${entry.catchUpS.toFixed(2).padStart(12)}`,
      ),
      ...(unusualDeliveries.length ? ['  deliveries not delivered at the first attempt:', ...unusualDeliveries.map((row) => `    ${JSON.stringify(row)}`)] : []),
      ...(errorLines.length ? [`  error lines logged (${errorLines.length}, first 20):`, ...errorLines.slice(0, 20).map((line) => `    ${line}`)] : []),
      '',
    ].join('\n');
    process.stdout.write(report);
    mkdirSync(join(REPO_ROOT, 'tmp'), { recursive: true });
    writeFileSync(join(REPO_ROOT, 'tmp', 'nats-cluster-figures.json'), JSON.stringify({ summary, faults: figures }, null, 2));

    expect(figures.map((entry) => entry.newLeader !== entry.node)).toEqual([true, true]);
    expect(writers.figures.commandErrors).toEqual([]);
    expect({ lost, duplicated, unacknowledged }).toEqual({ lost: 0, duplicated: 0, unacknowledged: 0 });
    expect({ unpublished, activityLost: activity.lost, activityDuplicated: activity.duplicated }).toEqual({ unpublished: 0, activityLost: 0, activityDuplicated: 0 });
    expect({ ...webhooks, sameIdAgain: undefined }).toEqual({ writes: webhooks.writes, delivered: webhooks.writes, missing: 0, twice: 0, sameIdAgain: undefined, unexpected: 0 });
  }, 900_000);
});
