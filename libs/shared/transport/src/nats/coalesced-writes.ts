/**
 * nats.js writes its outbound buffer to the socket in a microtask after the first message of a
 * turn: under load each HTTP request (or each pg reply in sync) is its own turn, so every
 * message became one `write` syscall (29% of the gateway's busy time in S1). This defers that
 * flush to `setImmediate`, after the event loop's poll phase, so the messages of every request
 * handled in one loop iteration leave in one write. What the client flushes at once stays at
 * once: a full buffer (its 32 KiB threshold) and a close.
 */
interface ProtocolInternals {
  outbound: { size(): number };
  pendingLimit: number;
  flushPending(): void;
  close(err?: Error): Promise<void>;
}

const COALESCED = Symbol('coalescedWrites');

export function coalesceWrites<T extends object>(connection: T): T {
  const protocol = (connection as { protocol?: ProtocolInternals & { [COALESCED]?: true } }).protocol;
  // An internal shape this does not know (another nats.js version): leave the client as it is.
  if (!protocol || typeof protocol.flushPending !== 'function' || typeof protocol.outbound?.size !== 'function' || protocol[COALESCED]) return connection;
  protocol[COALESCED] = true;
  const flushNow = protocol.flushPending.bind(protocol);
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
