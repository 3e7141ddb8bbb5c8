import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got, with when it arrived (performance.now(), the bench's own clock). */
export interface Receipt {
  readonly at: number;
  readonly deliveryId: string;
  readonly signatureOk: boolean;
  readonly eventName: string;
  readonly userId: string;
  readonly objectId: string;
  readonly content: string;
}

/**
 * S12's webhook receiver, in the bench's own process (so a receipt and the write it follows are
 * timed on one clock): bare node:http on 127.0.0.1, answers 200 at once, checks each body's
 * X-Todoist-Hmac-SHA256 against the app's client secret, and keeps what it needs to match
 * receipts to writes and to find a delivery that came twice.
 */
export class WebhookReceiver {
  readonly receipts: Receipt[] = [];
  private readonly waiters = new Map<string, (receipt: Receipt) => void>();
  private server?: Server;
  private secret = '';

  /** The client secret the bodies are signed with (known once the app is registered). */
  set clientSecret(secret: string) {
    this.secret = secret;
  }

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const at = performance.now();
        response.writeHead(200).end();
        const raw = Buffer.concat(chunks);
        const expected = createHmac('sha256', this.secret).update(raw).digest();
        const sent = Buffer.from(String(request.headers['x-todoist-hmac-sha256'] ?? ''), 'base64');
        let body: { event_name?: string; user_id?: string; event_data?: { id?: string; content?: string } } = {};
        try {
          body = JSON.parse(raw.toString()) as typeof body;
        } catch {
          // Kept as a receipt with empty fields: the checks find it.
        }
        const receipt: Receipt = {
          at,
          deliveryId: String(request.headers['x-todoist-delivery-id'] ?? ''),
          signatureOk: sent.length === expected.length && timingSafeEqual(sent, expected),
          eventName: body.event_name ?? '',
          userId: body.user_id ?? '',
          objectId: body.event_data?.id ?? '',
          content: body.event_data?.content ?? '',
        };
        this.receipts.push(receipt);
        this.waiters.get(receipt.content)?.(receipt);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** The first receipt of a task with this content, within the bound (undefined after it). */
  receiptOf(content: string, boundMs: number): Promise<Receipt | undefined> {
    const found = this.receipts.find((receipt) => receipt.content === content);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(content);
        resolve(undefined);
      }, boundMs);
      this.waiters.set(content, (receipt) => {
        clearTimeout(timer);
        this.waiters.delete(content);
        resolve(receipt);
      });
    });
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve) ?? resolve(undefined));
  }
}
