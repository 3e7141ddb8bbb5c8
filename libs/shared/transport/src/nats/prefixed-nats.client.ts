import { ClientNats, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import { createInbox, type MsgHdrs } from '@nats-io/transport-node';
import { coalesceWrites } from './coalesced-writes';
import { sizeInboundMessages } from './sized-inbound';
import { BEAT_HEADERS, beatIntervalFor, ConnectionLostError, isBeat, ReplicaLostError } from './replica-beats';

type NatsOptions = ConstructorParameters<typeof ClientNats>[0];
type Subscription = { unsubscribe(): void };
type ReplyMsg = { subject: string; headers?: MsgHdrs };
type ReplyHandler = (err: Error | null, msg: ReplyMsg) => void;
type Connection = {
  subscribe(subject: string, opts: { callback: ReplyHandler }): Subscription;
  publish(subject: string, data: unknown, opts: { reply: string; headers?: MsgHdrs }): void;
  /** A round trip to the server: answered after every message the server sent this connection before it. */
  flush(): Promise<void>;
};

/**
 * One reply subscription per connection (`<inbox>.*`), each attempt of each request a token
 * under it. Nest's client subscribes and unsubscribes an inbox per request: two more protocol
 * messages, and for nats-server an interest change each, on every call.
 */
class ReplyMux {
  private readonly routes = new Map<string, ReplyHandler>();
  private readonly prefix: string;
  private next = 0;

  constructor(readonly connection: Connection, inboxPrefix: string | undefined) {
    this.prefix = `${createInbox(inboxPrefix)}.`;
    connection.subscribe(`${this.prefix}*`, {
      callback: (err, msg) => {
        // An error without a message (the subscription's own) reaches every request waiting on it.
        if (err && !msg) for (const handler of [...this.routes.values()]) handler(err, msg);
        else this.routes.get(msg.subject.slice(this.prefix.length))?.(err, msg);
      },
    });
  }

  /** A new reply subject routed to `handler` until released. */
  open(handler: ReplyHandler): { inbox: string; release(): void } {
    const token = (this.next++).toString(36);
    this.routes.set(token, handler);
    return { inbox: this.prefix + token, release: () => this.routes.delete(token) };
  }
}

/** How many times a resendable request goes again to the queue group after its replica fell silent. */
const MAX_RESENDS = 2;
/**
 * How many times a watch whose timer fired late listens for one more silence. A timer that fires
 * well after its time means this process was stalled (a long collection, a starved CPU): the
 * replica's beats may be sitting unread in the socket, since timers run before I/O in Node's
 * loop. Taking that for the replica's silence answered 503 replica-lost with every replica alive
 * (bench S12/S13 at load average 13-27, and a CI run's revocation).
 */
const MAX_STALLED_WATCHES = 3;
/**
 * How long a resendable request in flight when the connection dropped waits for the client to
 * reconnect (to another server of a NATS cluster, in milliseconds) before it fails. A request
 * that may not run twice fails at once: its reply could only have come on the lost connection.
 */
const RECONNECT_GRACE_MS = 500;

/** A request waiting for its reply, as the connection's status changes reach it. */
interface InFlight {
  readonly channel: string;
  connectionLost(): void;
  reconnected(): void;
  /** Another request to its subject found no replica subscribed ("no responders"). */
  queueEmptied(): void;
}

/** The status NATS answers a request with when no replica is subscribed. */
const NO_RESPONDERS = 503;
/**
 * Silent this many beat intervals while NATS says no replica is subscribed: the replica that
 * took the request is gone (a replica that is draining still beats while it finishes).
 */
const BEATS_MISSED_WHEN_QUEUE_EMPTY = 1.5;

/**
 * Nest's NATS client under the deployment's subject prefix (see PrefixedNatsServer), watching
 * the replica that took each request (see replica-beats.ts): a request whose replica falls
 * silent is sent again to a live one when resendable, or fails at once otherwise.
 */
export class PrefixedNatsClient extends ClientNats {
  /** Subjects whose service has shown that it beats (a reply named its replica). */
  private readonly beatingSubjects = new Set<string>();
  private replies?: ReplyMux;
  private readonly inFlight = new Set<InFlight>();
  private connected = true;
  /** When a request to each subject last got "no responders" (performance.now()). */
  private readonly queueEmptiedAt = new Map<string, number>();

  constructor(
    options: NatsOptions,
    private readonly subjectPrefix: string,
    /** Silence after which a beating replica counts as gone; 0 turns the watch off. */
    private readonly silenceMs = 0,
  ) {
    super(options);
    // Nest reports the connection's status here as nats.js sees it: a dropped socket is known
    // at once, and every request waiting on it is answered now instead of after the silence
    // watch (3 x REPLICA_SILENCE_MS with resends) or the request timeout.
    this._status$.subscribe((status) => {
      // NatsStatus is a const enum (not importable under swc): its values are these strings.
      const state: string = status;
      if (state === 'disconnected') {
        this.connected = false;
        for (const request of [...this.inFlight]) request.connectionLost();
      } else if (state === 'connected' && !this.connected) {
        this.connected = true;
        for (const request of [...this.inFlight]) request.reconnected();
      }
    });
  }

  override async createClient(): ReturnType<ClientNats['createClient']> {
    return sizeInboundMessages(coalesceWrites(await super.createClient()));
  }

  protected override normalizePattern(pattern: Parameters<ClientNats['normalizePattern']>[0]): string {
    return this.subjectPrefix + super.normalizePattern(pattern);
  }

  /** Nest's publish (inbox, subscription, one publish), plus the silence watch and resends. */
  protected override publish(partialPacket: ReadPacket, callback: (packet: WritePacket) => unknown): () => void {
    const packet = this.assignPacketId(partialPacket);
    this.routingMap.set(packet.id, callback);
    let subscription: { release(): void } | undefined;
    let watchdog: NodeJS.Timeout | undefined;
    let reconnectWait: NodeJS.Timeout | undefined;
    let earlyCheck: NodeJS.Timeout | undefined;
    let finished = false;
    let request: InFlight | undefined;
    const cleanup = () => {
      finished = true;
      clearTimeout(watchdog);
      clearTimeout(reconnectWait);
      clearTimeout(earlyCheck);
      if (request) this.inFlight.delete(request);
      subscription?.release();
      this.routingMap.delete(packet.id);
    };
    try {
      const connection = this.natsClient as unknown as Connection;
      const channel = this.normalizePattern(partialPacket.pattern as Parameters<ClientNats['normalizePattern']>[0]);
      const serialized = this.serializer.serialize(packet) as { data: unknown; headers?: MsgHdrs };
      const headers = this.mergeHeaders(serialized.headers) as MsgHdrs | undefined;
      const watched = this.silenceMs > 0 && headers?.has(BEAT_HEADERS.request) === true && this.beatingSubjects.has(channel);
      const resendable = headers?.get(BEAT_HEADERS.resendable) === '1';
      let resends = 0;
      let stalledWatches = 0;
      let armedAt = 0;
      const beatMs = beatIntervalFor(this.silenceMs);
      const queueEmptiedSinceArmed = () => (this.queueEmptiedAt.get(channel) ?? -1) > armedAt;
      const arm = () => {
        if (!watched || finished) return;
        clearTimeout(watchdog);
        clearTimeout(earlyCheck);
        armedAt = performance.now();
        watchdog = setTimeout(onSilence, this.silenceMs);
        // Beats missed while NATS said nobody serves the subject: no need to wait the whole silence.
        earlyCheck = setTimeout(() => {
          if (queueEmptiedSinceArmed()) replicaGone();
        }, beatMs * BEATS_MISSED_WHEN_QUEUE_EMPTY);
      };
      const send = () => {
        subscription?.release();
        // A new reply subject per attempt: a late answer of the silent replica is never mixed in.
        const handle = this.createSubscriptionHandler(packet, callback);
        const reply = this.replyMux(connection).open((err, msg) => {
          if (finished) return;
          if (!err && msg.headers?.code === NO_RESPONDERS) this.queueEmptied(channel, request);
          arm();
          if (!err && isBeat(msg.headers)) return;
          if (!err && msg.headers?.has(BEAT_HEADERS.replica)) this.beatingSubjects.add(channel);
          void handle(err, msg);
        });
        subscription = reply;
        connection.publish(channel, serialized.data, { reply: reply.inbox, headers });
        arm();
      };
      const onSilence = () => {
        if (finished) return;
        const late = performance.now() - armedAt - this.silenceMs;
        if (late > this.silenceMs / 2 && stalledWatches < MAX_STALLED_WATCHES && !queueEmptiedSinceArmed()) {
          // This process was stalled, not necessarily the replica: read what arrived meanwhile first.
          stalledWatches++;
          arm();
          return;
        }
        // Ask the server before giving up: its answer comes after every message it already sent
        // us, so beats held up on the way (a starved nats-server, a slow network) are read
        // first. A gone replica costs one more round trip; a slow path no longer costs a 503.
        const silentSince = armedAt;
        const stillSilent = () => {
          if (!finished && armedAt === silentSince) replicaGone();
        };
        connection.flush().then(stillSilent, stillSilent);
      };
      const replicaGone = () => {
        if (finished) return;
        if (resendable && resends < MAX_RESENDS) {
          resends++;
          send();
          return;
        }
        callback({ err: new ReplicaLostError(channel), isDisposed: true });
        cleanup();
      };
      const failLost = () => {
        if (finished) return;
        callback({ err: new ConnectionLostError(channel), isDisposed: true });
        cleanup();
      };
      request = {
        channel,
        queueEmptied: () => {
          // Every beat read before this message was read first (one connection, in order), so silence measured now is real.
          if (watched && !finished && !reconnectWait && performance.now() - armedAt > beatMs * BEATS_MISSED_WHEN_QUEUE_EMPTY) replicaGone();
        },
        connectionLost: () => {
          if (finished || reconnectWait) return;
          clearTimeout(watchdog);
          if (!resendable) {
            failLost();
            return;
          }
          reconnectWait = setTimeout(failLost, RECONNECT_GRACE_MS);
        },
        reconnected: () => {
          if (finished || !reconnectWait) return;
          clearTimeout(reconnectWait);
          reconnectWait = undefined;
          send();
        },
      };
      this.inFlight.add(request);
      send();
      return cleanup;
    } catch (err) {
      cleanup();
      callback({ err });
      return () => undefined;
    }
  }

  /** No replica serves `channel` now: requests to it that already miss beats need not wait for the silence. */
  private queueEmptied(channel: string, from: InFlight | undefined): void {
    this.queueEmptiedAt.set(channel, performance.now());
    for (const request of [...this.inFlight]) if (request.channel === channel && request !== from) request.queueEmptied();
  }

  /** The mux of the current connection (a closed connection is replaced by a new one, with its own). */
  private replyMux(connection: Connection): ReplyMux {
    if (this.replies?.connection !== connection) this.replies = new ReplyMux(connection, this.options.inboxPrefix);
    return this.replies;
  }
}
