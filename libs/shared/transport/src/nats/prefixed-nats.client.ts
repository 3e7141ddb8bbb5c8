import { ClientNats, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import { createInbox, type MsgHdrs } from '@nats-io/transport-node';
import { BEAT_HEADERS, isBeat, ReplicaLostError } from './replica-beats';

type NatsOptions = ConstructorParameters<typeof ClientNats>[0];
type Subscription = { unsubscribe(): void };
type Connection = {
  subscribe(subject: string, opts: { callback: (err: Error | null, msg: { headers?: MsgHdrs }) => void }): Subscription;
  publish(subject: string, data: unknown, opts: { reply: string; headers?: MsgHdrs }): void;
};

/** How many times a resendable request goes again to the queue group after its replica fell silent. */
const MAX_RESENDS = 2;

/**
 * Nest's NATS client under the deployment's subject prefix (see PrefixedNatsServer), watching
 * the replica that took each request (see replica-beats.ts): a request whose replica falls
 * silent is sent again to a live one when resendable, or fails at once otherwise.
 */
export class PrefixedNatsClient extends ClientNats {
  /** Subjects whose service has shown that it beats (a reply named its replica). */
  private readonly beatingSubjects = new Set<string>();

  constructor(
    options: NatsOptions,
    private readonly subjectPrefix: string,
    /** Silence after which a beating replica counts as gone; 0 turns the watch off. */
    private readonly silenceMs = 0,
  ) {
    super(options);
  }

  protected override normalizePattern(pattern: Parameters<ClientNats['normalizePattern']>[0]): string {
    return this.subjectPrefix + super.normalizePattern(pattern);
  }

  /** Nest's publish (inbox, subscription, one publish), plus the silence watch and resends. */
  protected override publish(partialPacket: ReadPacket, callback: (packet: WritePacket) => unknown): () => void {
    const packet = this.assignPacketId(partialPacket);
    this.routingMap.set(packet.id, callback);
    let subscription: Subscription | undefined;
    let watchdog: NodeJS.Timeout | undefined;
    let finished = false;
    const cleanup = () => {
      finished = true;
      clearTimeout(watchdog);
      subscription?.unsubscribe();
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
      const arm = () => {
        if (!watched || finished) return;
        clearTimeout(watchdog);
        watchdog = setTimeout(onSilence, this.silenceMs);
      };
      const send = () => {
        subscription?.unsubscribe();
        // A new inbox per attempt: a late answer of the silent replica is never mixed in.
        const inbox = createInbox(this.options.inboxPrefix);
        const handle = this.createSubscriptionHandler(packet, callback);
        subscription = connection.subscribe(inbox, {
          callback: (err, msg) => {
            if (finished) return;
            arm();
            if (!err && isBeat(msg.headers)) return;
            if (!err && msg.headers?.has(BEAT_HEADERS.replica)) this.beatingSubjects.add(channel);
            void handle(err, msg);
          },
        });
        connection.publish(channel, serialized.data, { reply: inbox, headers });
        arm();
      };
      const onSilence = () => {
        if (finished) return;
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
}
