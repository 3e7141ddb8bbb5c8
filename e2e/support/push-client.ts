import WebSocket from 'ws';

export interface PushMessage {
  readonly type: string;
  /** performance.now() when it arrived. */
  readonly at: number;
}

/** The Origin the official web client sends (public-api-facts §1.6); any is accepted. */
export const WEB_ORIGIN = 'https://app.todoist.com';

/**
 * A push channel client as the official ones behave: connects to `websocket_url` and keeps
 * every `{"type": ...}` message with its arrival time, for the tests to wait on.
 */
export class PushClient {
  readonly messages: PushMessage[] = [];
  private waiters: Array<() => void> = [];

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const parsed = JSON.parse(data.toString()) as { type: string };
      this.messages.push({ type: parsed.type, at: performance.now() });
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static connect(url: string, headers: Record<string, string> = {}): Promise<PushClient> {
    const ws = new WebSocket(url, { headers: { origin: WEB_ORIGIN, ...headers } });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new PushClient(ws)));
      ws.once('unexpected-response', (_request, response) => reject(new Error(`upgrade refused: ${response.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** How an upgrade is refused: the status and the coded body (the upgrade must not happen). */
  static refusal(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
    const ws = new WebSocket(url, { headers: { origin: WEB_ORIGIN, ...headers } });
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        ws.terminate();
        reject(new Error('the upgrade was accepted'));
      });
      ws.once('unexpected-response', (_request, response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      });
      ws.once('error', reject);
    });
  }

  /** The messages of a type that arrived after `since` (performance.now()). */
  received(type: string, since = 0): PushMessage[] {
    return this.messages.filter((message) => message.type === type && message.at >= since);
  }

  /** The first message of a type after `since`, waiting at most `boundMs` for it. */
  async next(type: string, since: number, boundMs: number): Promise<PushMessage> {
    const deadline = performance.now() + boundMs;
    for (;;) {
      const found = this.received(type, since)[0];
      if (found) return found;
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no ${type} within ${boundMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits until no sync_needed has arrived for `quietMs`: what setup writes caused has come and gone. */
  async settle(quietMs = 300): Promise<void> {
    for (;;) {
      const before = this.received('sync_needed').length;
      await new Promise((resolve) => setTimeout(resolve, quietMs));
      if (this.received('sync_needed').length === before) return;
    }
  }

  close(): void {
    this.ws.close();
  }
}
