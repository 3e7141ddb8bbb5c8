import { connect } from '@nats-io/transport-node';
import { natsServers } from './nats-servers';

/**
 * One connection to NATS (any of a cluster's servers), then closed: whether a service starting
 * now could connect. `reconnect: false` alone: the client then tries each listed server once
 * (measured with nats.js 3.4: adding `maxReconnectAttempts: 0` makes it try one server, picked at
 * random, so a cluster with one server down failed half the probes).
 */
export async function probeNats(url: string, timeoutMs = 5_000): Promise<void> {
  const connection = await connect({ servers: natsServers(url), timeout: timeoutMs, reconnect: false, name: 'doable-start-probe' });
  await connection.close();
}
