import { connect } from '@nats-io/transport-node';
import { natsServers } from './nats-servers';

/** One connection to NATS (any of a cluster's servers), then closed: whether a service starting now could connect. */
export async function probeNats(url: string, timeoutMs = 5_000): Promise<void> {
  const connection = await connect({ servers: natsServers(url), timeout: timeoutMs, maxReconnectAttempts: 0, reconnect: false, name: 'doable-start-probe' });
  await connection.close();
}
