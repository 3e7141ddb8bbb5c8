import { ServerNats } from '@nestjs/microservices';
import { Empty, headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import { coalesceWrites } from './coalesced-writes';
import { sizeInboundMessages } from './sized-inbound';
import { BEAT_HEADERS, beatHeaders, requestedBeatMs } from './replica-beats';

type NatsConnection = { subscribe(subject: string, opts: { queue?: string; callback: (...args: never[]) => unknown }): unknown };
type NatsMsg = { reply?: string; headers?: MsgHdrs; respond(data: unknown, opts?: { headers?: MsgHdrs }): boolean };
/** Beats stop by this time even if no last reply was seen (a handler that never answers). */
const MAX_BEATING_MS = 10 * 60_000;
/**
 * On close, how long requests already in hand may take to answer. Below the process's stop bound
 * (STOP_TIMEOUT_MS, 10 s): a handler stuck longer is the deadline's to cut.
 */
const ANSWER_GRACE_MS = 8_000;

type Publisher = (response: { isDisposed?: boolean; err?: unknown }) => unknown;

/**
 * Nest's NATS server, subscribing every pattern under the deployment's subject prefix while
 * still dispatching by the unprefixed pattern. Queue group = service name, so replicas share
 * the load. For a caller that asks (see replica-beats.ts), it beats while a request is being
 * handled and names itself on every reply message.
 */
export class PrefixedNatsServer extends ServerNats {
  private readonly defaultQueue: string | undefined;
  /** Stops the beats of a request once its last reply message is out. */
  private readonly beating = new WeakMap<object, () => void>();
  /** Requests taken and not yet answered: a close lets them answer before the connection goes. */
  private readonly answering = new Set<NatsMsg>();
  private answered?: () => void;

  constructor(
    options: ConstructorParameters<typeof ServerNats>[0],
    private readonly subjectPrefix: string,
    /** `sync@host/pid`: how beats and replies name this replica. */
    private readonly replica = '',
  ) {
    super(options);
    this.defaultQueue = options?.queue;
  }

  override async createNatsClient(): ReturnType<ServerNats['createNatsClient']> {
    return sizeInboundMessages(coalesceWrites(await super.createNatsClient()));
  }

  override bindEvents(client: NatsConnection): void {
    const subscriptions = (this as unknown as { subscriptions: unknown[] }).subscriptions;
    for (const [pattern, handlerRef] of this.messageHandlers) {
      const queue = (handlerRef.extras?.queue as string | undefined) ?? this.defaultQueue;
      subscriptions.push(
        client.subscribe(this.subjectPrefix + pattern, { queue, callback: this.getMessageHandler(pattern).bind(this) as never }),
      );
    }
  }

  /**
   * A graceful close: no new requests (unsubscribed, so the queue group sends them to the other
   * replicas), then the ones in hand answer, then the connection closes. Nest's own graceful close
   * waits a fixed 500 ms, which cut off the answer of any longer request.
   */
  override async close(): Promise<void> {
    const subscriptions = (this as unknown as { subscriptions: Array<{ unsubscribe(): void }> }).subscriptions;
    for (const subscription of subscriptions.splice(0)) subscription.unsubscribe();
    if (this.answering.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([new Promise<void>((resolve) => (this.answered = resolve)), new Promise<void>((resolve) => (timer = setTimeout(resolve, ANSWER_GRACE_MS)))]);
      clearTimeout(timer);
    }
    await super.close();
  }

  override async handleMessage(channel: string, natsMsg: NatsMsg): Promise<unknown> {
    if (!natsMsg.reply) return this.handleRequestOrEvent(channel, natsMsg);
    this.answering.add(natsMsg);
    try {
      return await this.handleRequestOrEvent(channel, natsMsg);
    } catch (err) {
      this.doneAnswering(natsMsg);
      throw err;
    }
  }

  private doneAnswering(natsMsg: NatsMsg): void {
    if (this.answering.delete(natsMsg) && this.answering.size === 0) this.answered?.();
  }

  private async handleRequestOrEvent(channel: string, natsMsg: NatsMsg): Promise<unknown> {
    const beatMs = this.replica ? requestedBeatMs(natsMsg.headers) : undefined;
    if (!beatMs || !natsMsg.reply) return super.handleMessage(channel, natsMsg);
    // The first beat only after one interval: a fast reply goes out alone.
    const timer = setInterval(() => natsMsg.respond(Empty, { headers: beatHeaders(this.replica) }), beatMs);
    const cap = setTimeout(() => clearInterval(timer), MAX_BEATING_MS).unref();
    const stop = () => {
      clearInterval(timer);
      clearTimeout(cap);
    };
    this.beating.set(natsMsg, stop);
    try {
      return await super.handleMessage(channel, natsMsg);
    } catch (err) {
      stop();
      throw err;
    }
  }

  override getPublisher(natsMsg: NatsMsg, id: string, ctx: unknown): Publisher {
    const published = super.getPublisher(natsMsg, id, ctx as never) as Publisher;
    // The last message of an answer (Nest ends every reply stream with `isDisposed`, or an error).
    const publish: Publisher = (response) => {
      const sent = published(response);
      if (response.isDisposed || response.err) this.doneAnswering(natsMsg);
      return sent;
    };
    const stop = this.beating.get(natsMsg);
    if (!stop) return publish;
    const replica = this.replica;
    // Nest's publisher sends the serializer's headers (none for replies); these name the replica.
    const respond = natsMsg.respond.bind(natsMsg);
    natsMsg.respond = (data, opts) => {
      const headers = opts?.headers ?? natsHeaders();
      headers.set(BEAT_HEADERS.replica, replica);
      return respond(data, { ...opts, headers });
    };
    return (response) => {
      if (response.isDisposed || response.err) stop();
      return publish(response);
    };
  }
}
