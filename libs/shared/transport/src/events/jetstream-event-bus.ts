import { type EventEnvelope, envelopeTextParts } from '@doable/contracts-common';
import type { Logger } from '@doable/shared-logging';
import { AckPolicy, type ConsumerMessages, DeliverPolicy, jetstream, jetstreamManager, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { type DurableConsumer, EVENT_DONE, type EventBus, type EventOutcome, type Unsubscribe } from './event-bus';
import { MessageBatches } from './message-batches';
import { utf8Message } from './utf8-message';
import { natsServers } from '../nats/nats-servers';
import { raiseStreamReplicas, replicasRefused } from '../nats/stream-replicas';

// Consumers keep their "already handled" marks twice as long (messaging-retention.ts).
const RETENTION_DAYS = 7;
const REDELIVER_AFTER_MS = 5_000;
/**
 * A stopping replica hands back what it pulled but had not begun. Not at once: the server could
 * give it straight back to this replica's pull request, which it only forgets once it sees the
 * replica's interest gone; a second later it goes to a live replica.
 */
const HAND_BACK_AFTER_MS = 1_000;
/**
 * At most this many events go to a consumer at once, in one transaction (issue #48): a request of
 * 100 adds writes 100 object events, which each consumer then takes in one COMMIT, not 100.
 */
const BATCH_MAX = 100;
/** Messages a replica asks the server for ahead: the next batch is there when this one commits. */
const PULL_AHEAD = 128;

/**
 * Cluster mode: events on a JetStream stream. Publishing uses the event id as the message id,
 * so a relay that publishes twice (a crash between publish and marking the outbox row, or two
 * relay replicas) is de-duplicated by the server. Durable pull consumers are shared by every
 * replica of a service and keep their position while the service is down.
 */
export class JetStreamEventBus implements EventBus {
  private readonly stops = new Set<Unsubscribe>();

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly stream: string,
    private readonly subjectPrefix: string,
    private readonly logger: Logger,
  ) {}

  /** The bus's NATS connection, shared with what else the process does over NATS (the Object Store of files). */
  get connection(): NatsConnection {
    return this.nc;
  }

  /**
   * `url`: one server or a cluster's, comma-separated. `replicas` (NATS_REPLICAS, default 1): the
   * stream's copies in a NATS cluster; its durable consumers follow the stream's count.
   */
  static async connect(options: { url: string; name: string; stream: string; subjectPrefix: string; logger: Logger; replicas?: number }): Promise<JetStreamEventBus> {
    // noAsyncTraces: every publish waits for its acknowledgement as a request, and nats.js would
    // capture a stack for each (about 0.5 ms per request of 100 adds); a failed publish is retried
    // by the outbox relay, whose log names the event, so that stack would tell nothing more.
    const nc = await connect({ servers: natsServers(options.url), name: `${options.name}-events`, maxReconnectAttempts: -1, waitOnFirstConnect: true, noAsyncTraces: true });
    try {
      await JetStreamEventBus.ensureStream(nc, options);
    } catch (err) {
      // A service that cannot have its stream does not start: it leaves no connection behind either.
      await nc.close();
      throw err;
    }
    return new JetStreamEventBus(nc, jetstream(nc), options.stream, options.subjectPrefix, options.logger);
  }

  private static async ensureStream(nc: NatsConnection, options: { stream: string; subjectPrefix: string; logger: Logger; replicas?: number }): Promise<void> {
    const jsm = await jetstreamManager(nc);
    const replicas = options.replicas ?? 1;
    const config = {
      name: options.stream,
      subjects: [`${options.subjectPrefix}*.evt.>`],
      max_age: nanos(RETENTION_DAYS * 24 * 3600 * 1000),
      duplicate_window: nanos(2 * 60 * 1000),
      num_replicas: replicas,
    };
    const exists = await jsm.streams.info(options.stream).then(
      () => true,
      () => false,
    );
    if (exists) {
      // Made by a release (or a setting) with fewer copies: raised, never lowered (stream-replicas.ts).
      await raiseStreamReplicas(jsm, options.stream, replicas, options.logger);
      return;
    }
    await jsm.streams.add(config).catch(async (err: unknown) => {
      // Another replica created it first: that is the outcome we wanted.
      await jsm.streams.info(options.stream).catch(() => {
        throw replicasRefused(err, options.stream, replicas);
      });
    });
  }

  async publish(envelope: EventEnvelope): Promise<void> {
    await this.js.publish(this.subjectPrefix + envelope.subject, utf8Message(envelopeTextParts(envelope)), { msgID: envelope.id });
  }

  /**
   * All in flight at once, on one connection (so the stream stores them in this order), each
   * done when its own acknowledgement came: the relay's 100 rows cost one round trip, not 100,
   * and reach the consumers together, as one batch.
   */
  async publishAll(envelopes: readonly EventEnvelope[]): Promise<readonly EventOutcome[]> {
    const settled = await Promise.allSettled(envelopes.map((envelope) => this.publish(envelope)));
    return settled.map((result) => (result.status === 'fulfilled' ? EVENT_DONE : { done: false, error: result.reason as unknown }));
  }

  async consume(consumer: DurableConsumer): Promise<Unsubscribe> {
    const durable = consumer.durable.replace(/[^A-Za-z0-9_-]/g, '_');
    const jsm = await jetstreamManager(this.nc);
    try {
      await jsm.consumers.info(this.stream, durable);
    } catch {
      await jsm.consumers
        .add(this.stream, {
          durable_name: durable,
          filter_subject: this.subjectPrefix + consumer.subject,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          ack_wait: nanos(30_000),
        })
        .catch(async (err: unknown) => {
          await jsm.consumers.info(this.stream, durable).catch(() => {
            throw err;
          });
        });
    }
    const messages: ConsumerMessages = await (await this.js.consumers.get(this.stream, durable)).consume({ max_messages: PULL_AHEAD });
    const batches = new MessageBatches<JsMsg>(messages[Symbol.asyncIterator](), BATCH_MAX);
    let stopping = false;
    const loop = (async () => {
      for (let batch = await batches.next(); batch; batch = await batches.next()) {
        // Stopping: the batch in hand was finished; what was pulled but not begun goes back
        // at once for another replica (waiting for ack_wait would hold it 30 s).
        if (stopping) {
          for (const message of batch) message.nak(HAND_BACK_AFTER_MS);
          continue;
        }
        await this.deliver(consumer, durable, batch);
      }
    })();
    const stop: Unsubscribe = async () => {
      stopping = true;
      await messages.close();
      await loop;
      this.stops.delete(stop);
    };
    this.stops.add(stop);
    return stop;
  }

  /**
   * One batch to the consumer; acknowledged after it resolved (so after its COMMIT), each event
   * on its own outcome: a failed one is delivered again later, alone or in another batch.
   */
  private async deliver(consumer: DurableConsumer, durable: string, batch: readonly JsMsg[]): Promise<void> {
    const envelopes: EventEnvelope[] = [];
    const parsed: JsMsg[] = [];
    for (const message of batch) {
      try {
        envelopes.push(message.json<EventEnvelope>());
        parsed.push(message);
      } catch (err) {
        this.logger.warn({ err, durable, subject: message.subject }, 'event is not JSON; redelivering later');
        message.nak(REDELIVER_AFTER_MS);
      }
    }
    if (envelopes.length === 0) return;
    let outcomes: readonly EventOutcome[];
    try {
      outcomes = await consumer.handle(envelopes);
    } catch (error) {
      outcomes = envelopes.map(() => ({ done: false, error }));
    }
    parsed.forEach((message, index) => {
      const outcome = outcomes[index];
      try {
        if (outcome?.done) {
          message.ack();
          return;
        }
        this.logger.warn({ err: outcome ? outcome.error : undefined, durable, subject: message.subject }, 'event handler failed; redelivering later');
        message.nak(REDELIVER_AFTER_MS);
      } catch (err) {
        // The connection went: the server delivers the message again after ack_wait, and the consumer finds it handled.
        this.logger.warn({ err, durable, subject: message.subject }, 'could not acknowledge an event; it comes again');
      }
    });
  }

  broadcast(subject: string, handler: (envelope: EventEnvelope) => Promise<void> | void): Promise<Unsubscribe> {
    const subscription = this.nc.subscribe(this.subjectPrefix + subject, {
      callback: (err, message) => {
        if (err) return;
        Promise.resolve(handler(message.json<EventEnvelope>())).catch((error: unknown) =>
          this.logger.warn({ err: error, subject }, 'broadcast handler failed'),
        );
      },
    });
    return Promise.resolve(() => {
      subscription.unsubscribe();
      return Promise.resolve();
    });
  }

  isConnected(): boolean {
    return !this.nc.isClosed();
  }

  async close(): Promise<void> {
    for (const stop of [...this.stops]) await stop();
    await this.nc.drain().catch(() => this.nc.close());
  }
}

