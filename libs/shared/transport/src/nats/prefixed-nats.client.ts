import { ClientNats, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import { createInbox, type MsgHdrs } from '@nats-io/transport-node';
import { coalesceWrites } from './coalesced-writes';
import { BEAT_HEADERS, isBeat, ReplicaLostError } from './replica-beats';

type NatsOptions = ConstructorParameters<typeof ClientNats>[0];
type Subscription = { unsubscribe(): void };
type ReplyMsg = { subject: string; headers?: MsgHdrs };
type ReplyHandler = (err: Error | null, msg: ReplyMsg) => void;
type Connection = {
  subscribe(subject: string, opts: { callback: ReplyHandler }): Subscription;
  publish(subject: string, data: unknown, opts: { reply: string; headers?: MsgHdrs }): void;
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
 * Nest's NATS client under the deployment's subject prefix (see PrefixedNatsServer), watching
 * the replica that took each request (see replica-beats.ts): a request whose replica falls
 * silent is sent again to a live one when resendable, or fails at once otherwise.
 */
export class PrefixedNatsClient extends ClientNats {
  /** Subjects whose service has shown that it beats (a reply named its replica). */
  private readonly beatingSubjects = new Set<string>();
  private replies?: ReplyMux;

  constructor(
    options: NatsOptions,
    private readonly subjectPrefix: string,
    /** Silence after which a beating replica counts as gone; 0 turns the watch off. */
    private readonly silenceMs = 0,
  ) {
    super(options);
  }

  override async createClient(): ReturnType<ClientNats['createClient']> {
    return coalesceWrites(await super.createClient());
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
    let finished = false;
    const cleanup = () => {
      finished = true;
      clearTimeout(watchdog);
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
      const arm = () => {
        if (!watched || finished) return;
        clearTimeout(watchdog);
        armedAt = performance.now();
        watchdog = setTimeout(onSilence, this.silenceMs);
      };
      const send = () => {
        subscription?.release();
        // A new reply subject per attempt: a late answer of the silent replica is never mixed in.
        const handle = this.createSubscriptionHandler(packet, callback);
        const reply = this.replyMux(connection).open((err, msg) => {
          if (finished) return;
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
        if (late > this.silenceMs / 2 && stalledWatches < MAX_STALLED_WATCHES) {
          // This process was stalled, not necessarily the replica: read what arrived meanwhile first.
          stalledWatches++;
          arm();
          return;
        }
        if (resendable && resends < MAX_RESENDS) {
          resends++;
          send();
          return;
        }
        callback({ err: new ReplicaLostError(channel), isDisposed: true });
        cleanup();
      };
      send();
      return cleanup;
    } catch (err) {
      cleanup();
      callback({ err });
      return () => undefined;
    }
  }

  /** The mux of the current connection (a closed connection is replaced by a new one, with its own). */
  private replyMux(connection: Connection): ReplyMux {
    if (this.replies?.connection !== connection) this.replies = new ReplyMux(connection, this.options.inboxPrefix);
    return this.replies;
  }
}
