import WebSocket from 'ws';

/**
 * A push channel client (`GET /ws` with the API token in Authorization, as clients that can set
 * headers do): keeps when each `sync_needed` arrived (performance.now()), for S12's push latency.
 */
export class PushListener {
  private readonly heard: number[] = [];
  private wake?: () => void;

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      if ((JSON.parse(data.toString()) as { type?: string }).type !== 'sync_needed') return;
      this.heard.push(performance.now());
      this.wake?.();
    });
  }

  static connect(gatewayUrl: string, token: string): Promise<PushListener> {
    const ws = new WebSocket(`${gatewayUrl.replace(/^http/, 'ws')}/ws`, { headers: { authorization: `Bearer ${token}` } });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new PushListener(ws)));
      ws.once('unexpected-response', (_request, response) => reject(new Error(`the push channel refused the upgrade: HTTP ${response.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** When the first sync_needed after `since` arrived, waiting at most `boundMs`; undefined if none did. */
  async firstAfter(since: number, boundMs: number): Promise<number | undefined> {
    const deadline = performance.now() + boundMs;
    for (;;) {
      const found = this.heard.find((at) => at >= since);
      if (found !== undefined) return found;
      const left = deadline - performance.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  close(): void {
    this.ws.terminate();
  }
}
