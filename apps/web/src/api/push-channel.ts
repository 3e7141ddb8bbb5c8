/**
 * How long the channel may stay silent before the app takes it for dead. The gateway sends
 * `{"type":"ping"}` at least every 55 s (PUSH_PING_SECONDS is at most 55, 30 by default), so
 * two missed pings and some slack. A socket whose network went away without a close (a laptop
 * that slept, a Wi-Fi hand-over, a NAT that forgot the flow) looks open to the browser for
 * minutes or hours; without this the app would hear no change made elsewhere all that time.
 */
export const PUSH_SILENCE_MS = 120_000;

/** The events the channel listens to, as much of each as it reads. */
interface PushSocketEvents {
  open: unknown;
  close: unknown;
  message: { readonly data: unknown };
}

/** What the channel needs of a WebSocket: the browser's, or in tests any with the same events. */
export interface PushSocket {
  addEventListener<K extends keyof PushSocketEvents>(type: K, listener: (event: PushSocketEvents[K]) => void): void;
  close(): void;
}

export interface PushChannelOptions {
  readonly silenceMs?: number;
  readonly connect?: (url: string) => PushSocket;
}

/**
 * The push channel (the user object's `websocket_url`): the server says `{"type":"sync_needed"}`
 * when this person's data changed, and the app answers with an incremental sync. Reconnects with
 * a growing pause; a reconnect also syncs, since changes made while it was closed went unheard.
 * Anything heard (the server's pings included) proves the socket alive; after PUSH_SILENCE_MS of
 * nothing it is dropped and a new one opened at once, which syncs on opening.
 */
export function openPushChannel(url: () => string | undefined, onSyncNeeded: () => void, options: PushChannelOptions = {}): () => void {
  const silenceMs = options.silenceMs ?? PUSH_SILENCE_MS;
  const open: (address: string) => PushSocket = options.connect ?? ((address) => new WebSocket(address));
  let socket: PushSocket | undefined;
  let closed = false;
  let attempt = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let silence: ReturnType<typeof setTimeout> | undefined;

  const connect = () => {
    // Read afresh each time: the push token in the URL expires, and each sync brings a new one.
    const current = url();
    if (!current) return;
    const own = open(current);
    socket = own;
    // Events of a socket given up on (its close may come long after) no longer steer the channel.
    const isCurrent = () => socket === own && !closed;
    // Also from the start: a connection that never opens is given up the same way.
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(() => {
        if (!isCurrent()) return;
        socket = undefined;
        own.close();
        attempt = Math.max(attempt, 1);
        connect();
      }, silenceMs);
    };
    heard();
    own.addEventListener('open', () => {
      if (!isCurrent()) return;
      heard();
      if (attempt > 0) onSyncNeeded();
      attempt = 0;
    });
    own.addEventListener('message', (event) => {
      if (!isCurrent()) return;
      heard();
      if (typeof event.data !== 'string') return;
      try {
        if ((JSON.parse(event.data) as { type?: string }).type === 'sync_needed') onSyncNeeded();
      } catch {
        // Not JSON: nothing this app understands.
      }
    });
    own.addEventListener('close', () => {
      if (!isCurrent()) return;
      clearTimeout(silence);
      retry = setTimeout(connect, Math.min(30_000, 500 * 2 ** attempt++));
    });
  };
  connect();
  return () => {
    closed = true;
    clearTimeout(retry);
    clearTimeout(silence);
    socket?.close();
  };
}
