import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of pglite-socket that gives one client connection at a time the whole
 * database, from its first message until PostgreSQL reports ReadyForQuery with status idle
 * ("I"): a whole protocol cycle, and a whole transaction, are never interleaved with another
 * connection's.
 *
 * Why: PGlite is a single backend, and pglite-socket queues whatever arrives on each socket as
 * separate units. Outside an explicit transaction, one connection's Parse/Bind/Execute/Sync can
 * be split by another connection's messages, and the answers then reach the wrong connection:
 * under concurrent load, users were sent each other's data (a reproduction had 300 of 640
 * concurrent syncs answered with another account). Serialising at the wire is what PGlite does
 * anyway (one statement at a time); this only makes the unit a complete cycle.
 *
 * Assumes clients wait for ReadyForQuery before sending the next query (node-postgres does:
 * it does not pipeline), so releasing the turn on an idle ReadyForQuery is safe.
 */
export interface SerializingProxy {
  readonly port: number;
  close(): Promise<void>;
}

interface Session {
  readonly client: Socket;
  readonly upstream: Socket;
  /** Client bytes waiting for this session's turn. */
  pending: Buffer[];
  /** Server bytes not yet framed into whole messages. */
  inbound: Buffer;
  /** A forwarded SSLRequest is answered with one unframed byte ('N' or 'S'). */
  expectSslAnswer: boolean;
  sawFirstPacket: boolean;
  closed: boolean;
}

const SSL_REQUEST_CODE = 80877103;
const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I'

export async function startSerializingProxy(upstreamPort: number, listenPort = 0, host = '127.0.0.1'): Promise<SerializingProxy> {
  let holder: Session | null = null;
  const waiting: Session[] = [];
  const sessions = new Set<Session>();

  const forward = (session: Session) => {
    for (const chunk of session.pending) {
      if (!session.sawFirstPacket) {
        session.sawFirstPacket = true;
        session.expectSslAnswer = chunk.length >= 8 && chunk.readInt32BE(4) === SSL_REQUEST_CODE;
      }
      session.upstream.write(chunk);
    }
    session.pending = [];
  };

  const grant = () => {
    while (!holder && waiting.length > 0) {
      const next = waiting.shift()!;
      if (next.closed) continue;
      holder = next;
      forward(next);
    }
  };

  const release = (session: Session) => {
    if (holder !== session) return;
    holder = null;
    grant();
  };

  /** Reads whole server messages; an idle ReadyForQuery ends the session's turn. */
  const onServerData = (session: Session, chunk: Buffer) => {
    session.client.write(chunk);
    session.inbound = session.inbound.length ? Buffer.concat([session.inbound, chunk]) : chunk;
    if (session.expectSslAnswer && session.inbound.length > 0) {
      session.expectSslAnswer = false;
      session.inbound = session.inbound.subarray(1);
      // The client continues the handshake after this answer: give others a turn meanwhile.
      if (session.pending.length === 0) release(session);
    }
    let idle = false;
    while (session.inbound.length >= 5) {
      const length = session.inbound.readInt32BE(1);
      if (session.inbound.length < 1 + length) break;
      if (session.inbound[0] === READY_FOR_QUERY) idle = session.inbound[5] === IDLE;
      session.inbound = session.inbound.subarray(1 + length);
    }
    if (idle && session.pending.length === 0) release(session);
  };

  const end = (session: Session) => {
    if (session.closed) return;
    session.closed = true;
    sessions.delete(session);
    session.client.destroy();
    session.upstream.destroy();
    release(session);
  };

  const server: Server = createServer((client) => {
    const upstream = connect(upstreamPort, host);
    const session: Session = { client, upstream, pending: [], inbound: Buffer.alloc(0), expectSslAnswer: false, sawFirstPacket: false, closed: false };
    sessions.add(session);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.on('data', (chunk: Buffer) => {
      if (holder === session) {
        session.pending.push(chunk);
        forward(session);
        return;
      }
      session.pending.push(chunk);
      if (!waiting.includes(session)) waiting.push(session);
      grant();
    });
    upstream.on('data', (chunk: Buffer) => onServerData(session, chunk));
    for (const socket of [client, upstream]) {
      socket.on('close', () => end(session));
      socket.on('error', () => end(session));
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, host, () => resolve());
  });
  const address = server.address();
  const port = address && typeof address === 'object' ? address.port : 0;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of [...sessions]) end(session);
        server.close(() => resolve());
      }),
  };
}
