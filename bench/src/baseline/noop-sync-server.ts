// S1's baseline, in a process of its own: the least a server can do to answer the same no-change
// incremental sync. Bare node:http and pg, no framework, no broker. Per request: parse the body
// (JSON or form), look the bearer token up in memory (as the gateway's warm token cache does),
// one primary-key query for the user's high-water mark, and the same answer the product gives.
//
// Env: DATABASE_URL, POOL_SIZE (the product's sync service uses 10), TEMPLATE (the product's own
// no-change answer as JSON, so both serialise the same keys). Prints `LISTENING <port>`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { replyText, serveBaseline } from './bare-server';
import { noChangeSync, syncTokenOf } from './noop-sync-answer';

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((ok, fail) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => ok(body));
    request.on('error', fail);
  });
}

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'POST' || request.url !== '/api/v1/sync') return replyText(response, 404, JSON.stringify({ error: 'not found' }));
  const { status, body } = await noChangeSync(request.headers.authorization, syncTokenOf(request.headers['content-type'], await readBody(request)));
  replyText(response, status, JSON.stringify(body));
}

serveBaseline(answer);
