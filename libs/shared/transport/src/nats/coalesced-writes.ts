/**
 * nats.js writes its outbound buffer to the socket in a microtask after the first message of a
 * turn: under load each HTTP request (or each pg reply in sync) is its own turn, so every
 * message became one `write` syscall (29% of the gateway's busy time in S1). This defers that
 * flush to `setImmediate`, after the event loop's poll phase, so the messages of every request
 * handled in one loop iteration leave in one write. What the client flushes at once stays at
 * once: a full buffer (its 32 KiB threshold) and a close.
 *
 * And a large write leaves as the buffers it was queued as: nats.js copies everything pending
 * into one new buffer before writing it, which for a full sync's reply (3 MB in 1 MB messages)
 * was 13-17 ms of sync's CPU per answer on a machine where fresh pages fault (issue #48, bench
 * S3). From SEND_AS_QUEUED_FROM_BYTES on, each queued buffer is handed to the socket in order,
 * corked, so the kernel gets them in one writev; below it, the one packed write as before.
 */
interface ProtocolInternals {
  outbound: { size(): number; buffers?: Uint8Array[]; reset?(): void };
  transport?: { send?(frame: Uint8Array): void; socket?: { cork?(): void; uncork?(): void } };
  infoReceived?: boolean;
  connected?: boolean;
  pendingLimit: number;
  flushPending(): void;
  close(err?: Error): Promise<void>;
}

/** Pending bytes from which the queued buffers are written as they are, not copied into one first. */
export const SEND_AS_QUEUED_FROM_BYTES = 256 * 1024;

const COALESCED = Symbol('coalescedWrites');

export function coalesceWrites<T extends object>(connection: T): T {
  const protocol = (connection as { protocol?: ProtocolInternals & { [COALESCED]?: true } }).protocol;
  // An internal shape this does not know (another nats.js version): leave the client as it is.
  if (!protocol || typeof protocol.flushPending !== 'function' || typeof protocol.outbound?.size !== 'function' || protocol[COALESCED]) return connection;
  protocol[COALESCED] = true;
  const flushPacked = protocol.flushPending.bind(protocol);
  const flushNow = () => {
    const { outbound, transport } = protocol;
    const asQueued = outbound.size() >= SEND_AS_QUEUED_FROM_BYTES && Array.isArray(outbound.buffers) && typeof outbound.reset === 'function' && typeof transport?.send === 'function';
    // Not connected yet (or any more): nats.js' own flush decides what to do with what is pending.
    if (!asQueued || !protocol.infoReceived || !protocol.connected) return flushPacked();
    const buffers = [...outbound.buffers!];
    outbound.reset!();
    transport.socket?.cork?.();
    for (const buffer of buffers) transport.send!(buffer);
    transport.socket?.uncork?.();
  };
  const close = protocol.close.bind(protocol);
  let scheduled: NodeJS.Immediate | undefined;
  const flushScheduled = () => {
    scheduled = undefined;
    flushNow();
  };
  protocol.flushPending = () => {
    if (protocol.outbound.size() >= protocol.pendingLimit) {
      if (scheduled) clearImmediate(scheduled);
      flushScheduled();
    } else scheduled ??= setImmediate(flushScheduled);
  };
  protocol.close = (err?: Error) => {
    if (scheduled) {
      clearImmediate(scheduled);
      flushScheduled();
    }
    return close(err);
  };
  return connection;
}
