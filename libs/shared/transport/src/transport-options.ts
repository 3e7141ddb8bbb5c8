import type { InProcessBroker } from './in-process/in-process-broker';
import { REPLY_HEAD_HEADER } from './wire/serialized-reply';

/**
 * Cluster mode talks over NATS; embedded mode over an in-process broker that still serialises
 * every payload, so both modes see exactly the same data. Which one is configuration only.
 *
 * `subjectPrefix` namespaces every subject and the event stream, so several deployments (or
 * test runs) can share one NATS server without seeing each other.
 */
export type TransportOptions =
  | {
      readonly kind: 'nats';
      /** One server, or a cluster's servers separated by commas (NATS_URL; nats/nats-servers.ts). */
      readonly url: string;
      /** Copies of the event stream and the key-value buckets in a NATS cluster (NATS_REPLICAS; nats/stream-replicas.ts); default 1. */
      readonly replicas?: number;
      readonly subjectPrefix: string;
      readonly name: string;
      /** Silence after which a replica working on a request counts as gone (see nats/replica-beats.ts); 0: wait for the timeout. */
      readonly replicaSilenceMs?: number;
    }
  | { readonly kind: 'in-process'; readonly broker: InProcessBroker; readonly subjectPrefix: string; readonly name: string };

export const TRANSPORT_OPTIONS = Symbol('TRANSPORT_OPTIONS');

/** Header names shared by both transports. */
export const HEADERS = {
  correlationId: 'x-correlation-id',
  /**
   * Set by callers that can read framed replies (nats/reply-frames.ts), to the highest of
   * REPLY_FRAMES they read. A service frames a reply only as far as its caller reads, so a
   * gateway or service of an older release keeps getting what it understands during a rolling
   * upgrade, and a newer caller reads an older service's replies as ever.
   */
  replyFrames: 'x-doable-reply-frames',
  /** On a framed reply to a caller reading REPLY_FRAMES.headsInHeaders: its packet without the body, as JSON. */
  replyHead: REPLY_HEAD_HEADER,
} as const;

/** Values of HEADERS.replyFrames: what a caller reads, each level including the ones before. */
export const REPLY_FRAMES = {
  /** A long text body as raw bytes, when the reply fits one message. */
  bodies: '1',
  /** Also a body too large for one message, as chunks of raw bytes (rpc/reply-chunks.ts). */
  bodyChunks: '2',
  /**
   * Also a framed reply's packet in the message's headers (HEADERS.replyHead) and its body as the
   * whole payload, so the service sends the body's slice as it is rather than copying it after
   * the packet (nats/reply-frames.ts).
   */
  headsInHeaders: '3',
} as const;

/** The REPLY_FRAMES level a caller's header names: 0 for none; a level from a later release reads as the highest known. */
export function replyFramesLevel(value: string | undefined): number {
  const level = Number(value);
  return Number.isInteger(level) && level > 0 ? Math.min(level, Number(REPLY_FRAMES.headsInHeaders)) : 0;
}

export function streamNameFor(prefix: string): string {
  const tag = prefix.replace(/[^A-Za-z0-9]/g, '_').replace(/_+$/, '').toUpperCase();
  return tag ? `DOABLE_EVENTS_${tag}` : 'DOABLE_EVENTS';
}
