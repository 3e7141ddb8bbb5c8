import { randomUUID } from 'node:crypto';

/**
 * Writers that behave like real Sync API clients: one `item_add` per request, and a request
 * that fails (a 503, a timeout, a dropped connection) is sent again with the same command uuid
 * after Retry-After (capped), to the next gateway (a load balancer would do the same). A
 * per-command error is final, as official clients take it: it is counted, not retried.
 */

export interface Attempt {
  readonly writer: number;
  readonly sentAt: number;
  readonly answeredAt: number;
  /** HTTP status, or 0 for a connection error / client timeout. */
  readonly status: number;
  readonly ok: boolean;
  /** No answer because the connection was refused or closed (not a timeout): a client sends it elsewhere. */
  readonly refused: boolean;
  /** The coded reason of an error answer (`error_extra.reason`), to tell an outage from a timeout. */
  readonly reason?: string;
}

export interface WriterFigures {
  /** Contents whose command was acknowledged `ok`. */
  readonly acknowledged: Map<number, string[]>;
  /** Per-command errors (final for a client): should stay empty. */
  readonly commandErrors: string[];
  readonly attempts: Attempt[];
}

const CLIENT_TIMEOUT_MS = 30_000;
const MAX_RETRY_WAIT_MS = 1_000;
/** fetch's causes for a connection refused, reset or closed by the server before its answer. */
const CONNECTION_LOST = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

export class SteadyWriters {
  private running = true;
  private readonly loops: Promise<void>[] = [];
  readonly figures: WriterFigures = { acknowledged: new Map(), commandErrors: [], attempts: [] };

  constructor(
    private readonly gateways: () => readonly string[],
    private readonly tokens: readonly string[],
  ) {}

  start(): void {
    this.tokens.forEach((token, writer) => {
      this.figures.acknowledged.set(writer, []);
      this.loops.push(this.loop(writer, token));
    });
  }

  /** Lets each writer finish (acknowledge) the command it is on, then stops. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async loop(writer: number, token: string): Promise<void> {
    let gateway = writer;
    for (let n = 0; this.running; n++) {
      const content = `w${writer}-${n}`;
      const command = { type: 'item_add', uuid: randomUUID(), temp_id: randomUUID(), args: { content } };
      // Until acknowledged (or refused for good): the same uuid every time.
      for (;;) {
        const urls = this.gateways();
        const url = urls[gateway % urls.length];
        const sentAt = Date.now();
        let status = 0;
        let retryAfterMs = 200;
        let verdict: 'ok' | 'error' | 'retry' = 'retry';
        let refused = false;
        let reason: string | undefined;
        try {
          const response = await fetch(`${url}/api/v1/sync`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ commands: [command] }),
            signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
          });
          status = response.status;
          const body = (await response.json().catch(() => null)) as { sync_status?: Record<string, unknown>; error_extra?: { reason?: string } } | null;
          reason = body?.error_extra?.reason;
          const retryAfter = Number(response.headers.get('retry-after'));
          if (retryAfter > 0) retryAfterMs = Math.min(retryAfter * 1000, MAX_RETRY_WAIT_MS);
          if (status === 200) {
            const outcome = body?.sync_status?.[command.uuid];
            verdict = outcome === 'ok' ? 'ok' : 'error';
            if (verdict === 'error') this.figures.commandErrors.push(`${content}: ${JSON.stringify(outcome)}`);
          }
        } catch (err) {
          // Connection refused or reset, or our timeout: retried like a 503.
          refused = status === 0 && CONNECTION_LOST.has(((err as Error).cause as { code?: string } | undefined)?.code ?? '');
        }
        this.figures.attempts.push({ writer, sentAt, answeredAt: Date.now(), status, ok: verdict === 'ok', refused, ...(reason ? { reason } : {}) });
        if (verdict === 'ok') this.figures.acknowledged.get(writer)!.push(content);
        if (verdict !== 'retry') break;
        gateway++;
        await new Promise((resolve) => setTimeout(resolve, retryAfterMs));
      }
    }
  }
}
