import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { waitFor } from '@doable/shared-testing';
import { authorize, CALLBACK_URL, exchangeCode, HttpBrowser, logIn, registerApp } from '../support/oauth-flow';

/**
 * A webhook app's receiver for the fault suite: one writer authorizes an app whose webhook
 * (`item:added`) points here, and afterwards each of its acknowledged writes must have been
 * delivered once (by delivery id, as a receiver dedupes: X-Todoist-Delivery-ID,
 * public-api-facts §1.5). Needs WEBHOOKS_ALLOW_HTTP and WEBHOOKS_ALLOW_PRIVATE (plain HTTP on 127.0.0.1).
 */

export interface Delivery {
  readonly deliveryId: string;
  readonly eventName: string;
  readonly content: string;
}

/** The hooked writer's writes before the load, until the app's webhook is seen working. */
export const HOOK_PROBE = 'hook probe ';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The app's callback: records every delivery and answers 200. */
export async function startReceiver(deliveries: Delivery[]): Promise<{ port: number; server: Server }> {
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    request.on('end', () => {
      const body = JSON.parse(raw) as { event_name: string; event_data: { content?: string } };
      deliveries.push({ deliveryId: String(request.headers['x-todoist-delivery-id']), eventName: body.event_name, content: body.event_data.content ?? '' });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, server };
}

/**
 * The writer (who has a password) registers an app, authorizes it and points its webhook at the
 * receiver; then writes probes until one is delivered (the authorization reaches the webhooks
 * service as an event).
 */
export async function hookWriter(options: {
  readonly gatewayUrl: string;
  readonly email: string;
  readonly password: string;
  readonly token: string;
  readonly receiverPort: number;
  readonly deliveries: readonly Delivery[];
  readonly progress?: (line: string) => void;
}): Promise<void> {
  const browser = new HttpBrowser(options.gatewayUrl);
  await logIn(browser, options.email, options.password);
  const app = await registerApp(browser, 'Fault suite', [CALLBACK_URL]);
  const landed = await authorize(browser, { clientId: app.clientId, scopes: ['data:read'] });
  await exchangeCode(browser.baseUrl, app, landed.searchParams.get('code')!);
  options.progress?.('app authorized; configuring its webhook');
  const response = await fetch(`${browser.baseUrl}/api/v1/apps/webhook`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}` },
    body: JSON.stringify({ callback_url: `http://127.0.0.1:${options.receiverPort}/hook`, events: ['item:added'] }),
  });
  if (response.status !== 200) throw new Error(`PUT /api/v1/apps/webhook answered ${response.status}: ${await response.text()}`);
  options.progress?.('webhook configured; probing until a delivery comes');
  let probe = 0;
  await waitFor(async () => {
    await fetch(`${browser.baseUrl}/api/v1/sync`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ commands: [{ type: 'item_add', uuid: randomUUID(), temp_id: randomUUID(), args: { content: `${HOOK_PROBE}${probe++}` } }] }),
      signal: AbortSignal.timeout(30_000),
    });
    await sleep(500);
    return options.deliveries.some((delivery) => delivery.content.startsWith(HOOK_PROBE));
  }, 'a first webhook delivery', 60_000);
}

/** Every delivery row that is not simply delivered at the first attempt, once none is pending: shown when the webhook figures fail. */
export async function unusualDeliveries(databaseUrl: string): Promise<Record<string, unknown>[]> {
  const database = new Client({ connectionString: databaseUrl });
  await database.connect();
  try {
    await waitFor(async () => Number((await database.query<{ n: string }>("SELECT count(*) AS n FROM webhooks.deliveries WHERE state = 'pending'")).rows[0].n) === 0 || undefined, 'every webhook delivery to be final', 60_000);
    return (
      await database.query<Record<string, unknown>>("SELECT delivery_id, event_name, event->>'objectId' AS object_id, state, attempts, last_status, last_error FROM webhooks.deliveries WHERE state <> 'delivered' OR attempts > 1")
    ).rows;
  } finally {
    await database.end();
  }
}

export interface WebhookFigures {
  readonly writes: number;
  readonly delivered: number;
  readonly missing: number;
  /** Writes delivered under two delivery ids or more: a duplicate a receiver cannot drop. */
  readonly twice: number;
  /** The same delivery id again: a resend of one delivery, which a receiver drops by its id. */
  readonly sameIdAgain: number;
  /** Deliveries of writes the hooked writer was never told were written. */
  readonly unexpected: number;
}

/** The hooked writer's acknowledged writes against what the receiver got, counted by delivery id. */
export function webhookFigures(hooked: readonly string[], deliveries: readonly Delivery[]): WebhookFigures {
  const delivered = new Map<string, number>();
  const seenIds = new Set<string>();
  for (const delivery of deliveries.filter((candidate) => candidate.eventName === 'item:added')) {
    if (seenIds.has(delivery.deliveryId)) continue;
    seenIds.add(delivery.deliveryId);
    delivered.set(delivery.content, (delivered.get(delivery.content) ?? 0) + 1);
  }
  return {
    writes: hooked.length,
    delivered: hooked.filter((content) => delivered.has(content)).length,
    missing: hooked.filter((content) => !delivered.has(content)).length,
    twice: [...delivered.values()].filter((count) => count > 1).length,
    sameIdAgain: deliveries.length - new Set(deliveries.map((delivery) => delivery.deliveryId)).size,
    unexpected: [...delivered.keys()].filter((content) => !content.startsWith(HOOK_PROBE) && !hooked.includes(content)).length,
  };
}
