import type { z } from 'zod';

/**
 * A request/reply message: its subject name tied at compile time to the request and reply
 * types. The request schema is applied where the message is consumed (never trust the sender).
 * Subject names are dotted, owner-prefixed, versioned and append-only: `sync.edge.sync.v1`.
 */
export interface RequestSubject<Req, Rep> {
  readonly kind: 'request';
  readonly name: string;
  readonly request: z.ZodType<Req>;
  /** Phantom field: carries the reply type; never set at run time. */
  readonly reply?: Rep;
  /**
   * The reply's shape, where the contract states it as a schema (tied to `Rep` at compile
   * time): recorded in each release's contract snapshot, so a change that would break a caller
   * of the previous release is caught (contracts-releases). Absent: the reply is a TypeScript
   * type only, and the snapshot records no more than the subject's existence.
   */
  readonly replySchema?: z.ZodType<Rep>;
}

/** An event published through the owner's transactional outbox to every durable consumer. */
export interface EventSubject<P> {
  readonly kind: 'event';
  readonly name: string;
  readonly payload: z.ZodType<P>;
  /**
   * What the outbox checks of a payload it writes, and writes as it leaves it, where that is
   * less than `payload`: every payload of the contract passes it and comes out the same, and it
   * checks what the producer's own types cannot guarantee (ids' formats, enums). Consumers still
   * check what they use (conventions: validate where consumed). Absent: `payload` itself.
   */
  readonly checkedOnWrite?: z.ZodType<unknown>;
}

export type RequestOf<S> = S extends RequestSubject<infer Req, unknown> ? Req : never;
export type ReplyOf<S> = S extends RequestSubject<unknown, infer Rep> ? Rep : never;
export type PayloadOf<E> = E extends EventSubject<infer P> ? P : never;

const SUBJECT_NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+\.v[0-9]+$/;

function checkName(name: string): string {
  if (!SUBJECT_NAME.test(name)) throw new Error(`subject "${name}" must be dotted, lower-case and end in .v<N>`);
  return name;
}

export function requestSubject<Req, Rep>(name: string, request: z.ZodType<Req>, replySchema?: z.ZodType<Rep>): RequestSubject<Req, Rep> {
  return { kind: 'request', name: checkName(name), request, ...(replySchema ? { replySchema } : {}) };
}

export function eventSubject<P>(name: string, payload: z.ZodType<P>, options: { checkedOnWrite?: z.ZodType<unknown> } = {}): EventSubject<P> {
  if (!name.split('.').includes('evt')) throw new Error(`event subject "${name}" must contain an "evt" segment`);
  return { kind: 'event', name: checkName(name), payload, ...(options.checkedOnWrite ? { checkedOnWrite: options.checkedOnWrite } : {}) };
}

/**
 * The same event parsed with a schema of what one consumer reads of it: a part of the contract's
 * payload (every payload the contract accepts must pass), the rest checked by the consumer where
 * it uses it. Not a subject of its own: build it at the consumer, never export it from a
 * contract's events (the catalogue would see the name twice).
 */
export function eventAsRead<P>(event: EventSubject<unknown>, payload: z.ZodType<P>): EventSubject<P> {
  return { kind: 'event', name: event.name, payload };
}

/** What travels on the event stream: the payload plus what consumers need to be idempotent. */
export interface EventEnvelope<P = unknown> {
  /** Unique per event; the JetStream message id (dedupe) and the consumers' idempotency key. */
  readonly id: string;
  readonly subject: string;
  readonly occurredAt: string;
  readonly correlationId?: string;
  /** The W3C trace context of the outbox relay's publish span: a consumer's span continues that trace. */
  readonly traceparent?: string;
  readonly payload: P;
}
