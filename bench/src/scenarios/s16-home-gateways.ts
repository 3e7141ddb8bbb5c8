import { randomUUID } from 'node:crypto';
import { homeKeyOfToken, homeRing } from '@doable/contracts-common';
import { gatewayCounter, pollsAnsweredByGateway, TEST_NATS_URL } from '@doable/shared-testing';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createAccounts, initialFullSyncs, postSync, type BenchUser, waitForProfiles } from '../accounts';
import type { Cluster, Replica } from '../cluster';
import { until } from '../poll';
import { PushListener } from '../push-listener';
import type { BenchContext, Scenario, ScenarioRow } from './scenario';

const GATEWAYS = 4;
const WRITERS = 20;
const WRITES_EACH = 5;
/** The target: whatever the number of gateways. */
const TARGET_PER_WRITE = 2;
const HEARD_BOUND_MS = 10_000;

/**
 * S16, home gateways (docs/operations/home-gateways.md): the NATS messages one write costs the
 * users-moved barrier and the push channel, with 4 gateways. The cluster's gateway is named (as
 * every run's is); 3 more replicas beside it are started twice:
 * - without a home name (the previous release's way: each keeps every user's answers, so sync
 *   tells each of every write, and each hears every write's users-changed broadcast);
 * - with a name each, `127.0.0.1:<port>` as an nginx upstream would list it.
 * Each of 20 writers has a push socket open and writes 5 `item_add`s, each after the same poll
 * twice (the second the gateway's own answer) and followed by one;
 * with names, every request of a writer goes to its home, chosen from its token's home key as
 * nginx's `hash $key consistent` would (NginxRing over the 4 names), and the poll before each
 * write is answered by the home itself. Counted per write: the barrier's requests (seen on the
 * wire by a subscriber to the gateways' users-moved subjects), their replies (the gateways'
 * doable_gateway_users_moved_total) and the users-changed events delivered to gateways
 * (doable_gateway_push_broadcasts_total). Not counted, as they do not grow with gateways: the
 * write's own request and reply, and its events' one publish each into JetStream.
 */
export const s16HomeGateways: Scenario = {
  id: 'S16',
  title: `home gateways: NATS messages per write for the users-moved barrier and push, ${GATEWAYS} gateways`,
  target: `<= ${TARGET_PER_WRITE} per write whatever the number of gateways; 0 stale polls; every write heard on its socket`,
  run: async (context) => [await measure(context)],
};

interface Phase {
  readonly writes: number;
  readonly requests: number;
  readonly replies: number;
  readonly broadcasts: number;
  readonly stale: number;
  readonly unheard: number;
  readonly answeredAtHome: number;
}

const perWrite = (phase: Phase) => Math.round(((phase.requests + phase.replies + phase.broadcasts) / phase.writes) * 100) / 100;

async function measure(context: BenchContext): Promise<ScenarioRow> {
  const { cluster } = await context.cluster();
  const accounts = await createAccounts(cluster.databaseUrl, `${context.runId}-s16`, WRITERS);
  await waitForProfiles(cluster.databaseUrl, accounts.map((account) => account.userId));
  const writers = await initialFullSyncs(cluster.gatewayUrl, accounts);
  const nats = await connect({ servers: TEST_NATS_URL, name: 'bench-s16-observer' });
  try {
    const unnamed = await startGateways(cluster, () => ({ GATEWAY_HOME_NAME: '' }));
    const everyone = await run(cluster, nats, writers, [cluster.gatewayUrl, ...unnamed.map((replica) => replica.url)], () => undefined);
    for (const replica of unnamed) await replica.child.stop();

    const named = await startGateways(cluster, (port) => ({ GATEWAY_HOME_NAME: `127.0.0.1:${port}` }));
    const names = [cluster.gatewayHomeName, ...named.map((replica) => new URL(replica.url).host)];
    const urls = [cluster.gatewayUrl, ...named.map((replica) => replica.url)];
    const ring = homeRing('nginx', names);
    const homes = await run(cluster, nats, writers, urls, (user) => urls[names.indexOf(ring.homeOf(homeKeyOfToken(user.token)!)!)]);
    for (const replica of named) await replica.child.stop();

    const measured = perWrite(homes);
    const clean = homes.stale === 0 && homes.unheard === 0 && everyone.stale === 0;
    const spread = new Set(writers.map((user) => ring.homeOf(homeKeyOfToken(user.token)!))).size;
    return {
      id: 'S16',
      mode: 'cluster',
      what: s16HomeGateways.title,
      status: 'measured',
      product: figures(homes),
      baseline: figures(everyone),
      ratio: { name: 'messages per write with homes', value: measured },
      target: s16HomeGateways.target,
      pass: clean && measured <= TARGET_PER_WRITE,
      valid: clean,
      notes: [
        `${WRITERS} writers x ${WRITES_EACH} item_adds each, one at a time, each after two polls and followed by one; every writer with a push socket open (at its home, with names); the writers' homes fell on ${spread} of the ${GATEWAYS} gateways`,
        `baseline: the same with the 3 replicas unnamed (every user's, as before homes) beside the named first gateway: ${perWrite(everyone)} per write (the previous release: 3 per gateway, ${3 * GATEWAYS} with ${GATEWAYS})`,
        `with names: ${homes.answeredAtHome} of the ${homes.writes} repeated polls before a write were answered by the writer's home itself; the poll after each write saw it ${homes.writes - homes.stale} times of ${homes.writes}`,
        'counted: users-moved requests (on the wire), their replies (the gateways answered), users-changed events delivered to gateways; not counted: the write itself and its events\' one publish each into JetStream',
      ],
      details: { everyone, homes, names },
    };
  } finally {
    await nats.drain();
  }
}

function figures(phase: Phase): Record<string, number> {
  return {
    'messages per write': perWrite(phase),
    writes: phase.writes,
    'barrier requests': phase.requests,
    'barrier replies': phase.replies,
    'broadcasts to gateways': phase.broadcasts,
    'stale polls': phase.stale,
    'writes not heard': phase.unheard,
  };
}

/** 3 gateway replicas beside the cluster's own, each with the env `envOf` gives for its port. */
async function startGateways(cluster: Cluster, envOf: (port: number) => NodeJS.ProcessEnv): Promise<Replica[]> {
  const replicas: Replica[] = [];
  for (let index = 1; index < GATEWAYS; index++) replicas.push(await cluster.startReplica('gateway', envOf));
  return replicas;
}

/**
 * Every writer polls and writes through `homeOf(writer)` (undefined: dealt out over `urls`),
 * once sync tells only what this fleet needs; counts what the writes cost.
 */
async function run(cluster: Cluster, nats: NatsConnection, writers: readonly BenchUser[], urls: readonly string[], homeOf: (user: BenchUser) => string | undefined): Promise<Phase> {
  const urlOf = (user: BenchUser, index: number) => homeOf(user) ?? urls[index % urls.length];
  const requests = counter(nats, `${cluster.subjectPrefix}gateway.instance.*.users-moved.v1`);
  const gatewayTotals = async () => {
    const totals = await Promise.all(urls.map(async (url) => ({ moved: await gatewayCounter(url, 'doable_gateway_users_moved_total'), broadcasts: await gatewayCounter(url, 'doable_gateway_push_broadcasts_total'), hits: await pollsAnsweredByGateway(url) })));
    return totals.reduce((sum, each) => ({ moved: sum.moved + each.moved, broadcasts: sum.broadcasts + each.broadcasts, hits: sum.hits + each.hits }), { moved: 0, broadcasts: 0, hits: 0 });
  };
  const sockets = await Promise.all(writers.map((user, index) => PushListener.connect(urlOf(user, index), user.token)));
  const tokens = writers.map((user) => user.syncToken);
  const write = async (user: BenchUser, index: number): Promise<{ stale: boolean; heard: boolean }> => {
    const url = urlOf(user, index);
    const content = `s16 ${randomUUID()}`;
    const uuid = randomUUID();
    const sent = performance.now();
    const written = await postSync(url, user.token, { commands: [{ type: 'item_add', uuid, temp_id: uuid, args: { content } }] });
    if ((written.body['sync_status'] as Record<string, unknown> | undefined)?.[uuid] !== 'ok') throw new Error(`S16: a write failed: ${JSON.stringify(written.body).slice(0, 200)}`);
    const after = await postSync(url, user.token, { sync_token: tokens[index], resource_types: ['items'] });
    const items = (after.body['items'] as Array<{ content: string }> | undefined) ?? [];
    tokens[index] = after.body['sync_token'] as string;
    const heard = (await sockets[index].firstAfter(sent, HEARD_BOUND_MS)) !== undefined;
    return { stale: !items.some((item) => item.content === content), heard };
  };
  try {
    // Each writer's poll answered by its gateway itself, then sync telling only the homes (its view of the
    // new gateways a lease old): a write of the first writer costs what the fleet's steady state costs.
    for (const [index, user] of writers.entries()) {
      await until(async () => {
        const before = await pollsAnsweredByGateway(urlOf(user, index));
        tokens[index] = await poll(urlOf(user, index), user, tokens[index]);
        return (await pollsAnsweredByGateway(urlOf(user, index))) > before ? true : undefined;
      }, `S16: ${urlOf(user, index)} to answer the polls of user ${user.userId} itself`, 60_000, 200);
    }
    const expected = homeOf(writers[0]) === undefined ? urls.length : 1;
    await until(async () => {
      const before = requests.count;
      await write(writers[0], 0);
      return requests.count - before === expected ? true : undefined;
    }, 'S16: sync to tell the gateways this fleet needs told', 60_000, 200);

    const before = { requests: requests.count, ...(await gatewayTotals()) };
    let stale = 0;
    let unheard = 0;
    let answeredAtHome = 0;
    for (let round = 0; round < WRITES_EACH; round++) {
      for (const [index, user] of writers.entries()) {
        // Two polls first: the second, a repeat of the first, is the home's own answer.
        tokens[index] = await poll(urlOf(user, index), user, tokens[index]);
        const hitsBefore = await pollsAnsweredByGateway(urlOf(user, index));
        tokens[index] = await poll(urlOf(user, index), user, tokens[index]);
        if ((await pollsAnsweredByGateway(urlOf(user, index))) > hitsBefore) answeredAtHome++;
        const outcome = await write(user, index);
        if (outcome.stale) stale++;
        if (!outcome.heard) unheard++;
      }
    }
    const after = { requests: requests.count, ...(await gatewayTotals()) };
    return {
      writes: WRITERS * WRITES_EACH,
      requests: after.requests - before.requests,
      replies: after.moved - before.moved,
      broadcasts: after.broadcasts - before.broadcasts,
      stale,
      unheard,
      answeredAtHome,
    };
  } finally {
    for (const socket of sockets) socket.close();
    requests.stop();
  }
}

/** An incremental sync of the items; answers the token to poll with next (the same while nothing changed). */
async function poll(url: string, user: BenchUser, syncToken: string): Promise<string> {
  const answer = await postSync(url, user.token, { sync_token: syncToken, resource_types: ['items'] });
  const next = answer.body['sync_token'];
  if (answer.status !== 200 || typeof next !== 'string') throw new Error(`S16: a poll failed: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
  return next;
}

/** Messages seen on a subject (wildcards allowed) by one more subscriber: it does not answer, so changes nothing. */
function counter(nats: NatsConnection, subject: string): { readonly count: number; stop(): void } {
  let count = 0;
  const subscription = nats.subscribe(subject, {
    callback: () => {
      count++;
    },
  });
  return {
    get count() {
      return count;
    },
    stop: () => subscription.unsubscribe(),
  };
}

