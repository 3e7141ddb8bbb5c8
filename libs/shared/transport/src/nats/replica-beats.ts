import { hostname } from 'node:os';
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';

/**
 * Fast failover between replicas of a service (a queue group on NATS).
 *
 * A caller that can handle it asks for beats: its request carries `x-doable-beats: <ms>`. The
 * replica that took the request then sends a beat (an empty message with `x-doable-beat`, to
 * the request's reply inbox) every <ms> while the handler works; the first one only after <ms>,
 * so a fast reply costs no extra message. Every reply message it sends names the replica
 * (`x-doable-replica`), which tells the caller the service beats.
 *
 * The caller, once it has seen that the subject's service beats, takes silence (no beat and no
 * reply for `silenceMs`, a few beats long) as the replica being gone: a resendable request
 * (the caller says so: a sync request whose commands carry uuids, a read, a write with
 * X-Request-Id) goes again to the queue group, where a live replica takes it; any other fails
 * at once with 503 (reason `replica-lost`). A crash costs a client milliseconds, not the
 * request timeout.
 *
 * Rolling upgrades: a service of the previous release ignores the request header (no beats,
 * no replica header), so the caller never learns that it beats and waits for it as before; a
 * caller of the previous release sends no header and gets no beats it could not read.
 */
export const BEAT_HEADERS = {
  /** On a request: the beat interval the caller asks for, in ms. */
  request: 'x-doable-beats',
  /** On a beat message: which replica is alive and working on the request. */
  beat: 'x-doable-beat',
  /** On every reply message of a beating service: which replica answered. */
  replica: 'x-doable-replica',
  /** On a request: the caller may send it again to another replica (never read by services). */
  resendable: 'x-doable-resendable',
} as const;

/** Beats are never more frequent than this, whatever a caller asks. */
const MIN_BEAT_MS = 50;
/** A silence of this many beat intervals means the replica is gone. */
export const BEATS_PER_SILENCE = 3;

export function beatIntervalFor(silenceMs: number): number {
  return Math.max(MIN_BEAT_MS, Math.floor(silenceMs / BEATS_PER_SILENCE));
}

/** The beat interval a request asks for, or undefined when its caller does not beat-watch. */
export function requestedBeatMs(headers: MsgHdrs | undefined): number | undefined {
  const raw = headers?.get(BEAT_HEADERS.request);
  const ms = raw ? Number(raw) : NaN;
  return Number.isFinite(ms) && ms > 0 ? Math.max(MIN_BEAT_MS, ms) : undefined;
}

/** This process as a replica: `sync@host/pid`. */
export function replicaId(service: string): string {
  return `${service}@${hostname()}/${process.pid}`;
}

export function beatHeaders(replica: string): MsgHdrs {
  const headers = natsHeaders();
  headers.set(BEAT_HEADERS.beat, replica);
  return headers;
}

export function isBeat(headers: MsgHdrs | undefined): boolean {
  return headers?.has(BEAT_HEADERS.beat) === true;
}

/** Raised for a request whose replica fell silent and which may not be sent again. */
export class ReplicaLostError extends Error {
  constructor(readonly subject: string) {
    super(`the replica serving ${subject} fell silent`);
    this.name = 'ReplicaLostError';
  }
}

/**
 * Raised for a request in flight when this process's own connection to NATS dropped: its reply
 * can no longer arrive on that connection, so waiting for silence or a timeout only delays the 503.
 */
export class ConnectionLostError extends Error {
  constructor(readonly subject: string) {
    super(`the connection to the message bus dropped while ${subject} was in flight`);
    this.name = 'ConnectionLostError';
  }
}
