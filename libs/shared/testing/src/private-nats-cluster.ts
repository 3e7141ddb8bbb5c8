import { rmSync } from 'node:fs';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { freePort } from './free-port';
import { NatsServerProcess, privateStore } from './private-nats';
import { waitFor } from './wait-for';

/** One server of a private NATS cluster. */
export interface PrivateNatsNode {
  /** Its server name (what JetStream names a stream's leader and peers by). */
  readonly name: string;
  readonly url: string;
  /** Its process id while it runs. */
  readonly pid: number | undefined;
  running(): boolean;
  /** SIGKILL (a crash: no goodbye to its routes or clients) or SIGTERM, and wait for the exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on its ports and store; resolves once it accepts clients (not once it has caught up). */
  start(): Promise<void>;
}

/**
 * A NATS cluster of a suite's own: `size` servers with JetStream, each on free ports with a
 * store of its own, routed to each other. For suites that kill a node, which they must never do
 * to the machine's shared server.
 */
export interface PrivateNatsCluster {
  /** Every server's client URL, comma-separated (NATS_URL). */
  readonly url: string;
  readonly nodes: readonly PrivateNatsNode[];
  /** The node leading a stream now (its JetStream cluster leader), once one is elected. */
  leaderOf(stream: string): Promise<PrivateNatsNode>;
  /** Whether each of the stream's peers is current (caught up with its leader), and as many as asked. */
  streamCurrent(stream: string, replicas: number): Promise<boolean>;
  /** Stops every server and removes their stores. */
  destroy(): Promise<void>;
}

/** A client on every server that is up, for one look at the cluster. */
async function withJsm<T>(url: string, look: (jsm: Awaited<ReturnType<typeof jetstreamManager>>) => Promise<T>): Promise<T> {
  const nc = await connect({ servers: url.split(','), timeout: 2_000, reconnect: false });
  try {
    return await look(await jetstreamManager(nc, { timeout: 2_000 }));
  } finally {
    await nc.close();
  }
}

export async function startPrivateNatsCluster(label = 'nats-cluster', size = 3): Promise<PrivateNatsCluster> {
  const ports = await Promise.all(Array.from({ length: size }, async () => ({ client: await freePort(), route: await freePort() })));
  const routes = ports.map(({ route }) => `nats://127.0.0.1:${route}`).join(',');
  const clusterName = `${label}-${process.pid}`;
  const stores: string[] = [];
  const nodes = ports.map(({ client, route }, index) => {
    const name = `${label}-n${index + 1}`;
    const store = privateStore(`${label}-n${index + 1}`);
    stores.push(store);
    const server = new NatsServerProcess([
      '-js',
      '-sd',
      store,
      '-a',
      '127.0.0.1',
      '-p',
      String(client),
      '-n',
      name,
      '--cluster_name',
      clusterName,
      '--cluster',
      `nats://127.0.0.1:${route}`,
      '--routes',
      routes,
    ]);
    return {
      name,
      url: `nats://127.0.0.1:${client}`,
      get pid() {
        return server.pid;
      },
      running: () => server.running(),
      stop: (signal?: NodeJS.Signals) => server.stop(signal),
      start: () => server.start(),
    } satisfies PrivateNatsNode;
  });
  const url = nodes.map((node) => node.url).join(',');
  const destroy = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    for (const store of stores) rmSync(store, { recursive: true, force: true });
  };
  try {
    await Promise.all(nodes.map((node) => node.start()));
    // Ready for clients is not ready for JetStream: the servers elect a meta leader, which then
    // has to learn of every peer before it can place a stream on all of them ("no suitable peers
    // for placement" until then). Ready once a stream with a copy on each server can be made.
    const probe = `READY_PROBE_${process.pid}`;
    await waitFor(
      () =>
        withJsm(url, async (jsm) => {
          await jsm.streams.add({ name: probe, subjects: [`ready-probe-${process.pid}`], num_replicas: size });
          return jsm.streams.delete(probe);
        }),
      `the NATS cluster to place a stream on all ${size} servers`,
      60_000,
    );
  } catch (err) {
    await destroy();
    throw err;
  }
  return {
    url,
    nodes,
    leaderOf: (stream) =>
      waitFor(
        () =>
          withJsm(url, async (jsm) => {
            const leader = (await jsm.streams.info(stream)).cluster?.leader;
            return nodes.find((node) => node.name === leader);
          }),
        `a leader of stream ${stream}`,
        60_000,
      ),
    streamCurrent: (stream, replicas) =>
      withJsm(url, async (jsm) => {
        const { cluster } = await jsm.streams.info(stream);
        const peers = cluster?.replicas ?? [];
        // The leader is not among its own replicas.
        return cluster?.leader !== undefined && peers.length === replicas - 1 && peers.every((peer) => peer.current && !peer.offline);
      }),
    destroy,
  };
}
