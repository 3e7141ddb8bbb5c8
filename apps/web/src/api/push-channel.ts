/**
 * The push channel (the user object's `websocket_url`): the server says `{"type":"sync_needed"}`
 * when this person's data changed, and the app answers with an incremental sync. Reconnects with
 * a growing pause; a reconnect also syncs, since changes made while it was closed went unheard.
 */
export function openPushChannel(url: () => string | undefined, onSyncNeeded: () => void): () => void {
  let socket: WebSocket | undefined;
  let closed = false;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const connect = () => {
    // Read afresh each time: the push token in the URL expires, and each sync brings a new one.
    const current = url();
    if (!current) return;
    socket = new WebSocket(current);
    socket.addEventListener('open', () => {
      if (attempt > 0) onSyncNeeded();
      attempt = 0;
    });
    socket.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (typeof event.data !== 'string') return;
      try {
        if ((JSON.parse(event.data) as { type?: string }).type === 'sync_needed') onSyncNeeded();
      } catch {
        // Not JSON: nothing this app understands.
      }
    });
    socket.addEventListener('close', () => {
      if (closed) return;
      timer = setTimeout(connect, Math.min(30_000, 500 * 2 ** attempt++));
    });
  };
  connect();
  return () => {
    closed = true;
    clearTimeout(timer);
    socket?.close();
  };
}
