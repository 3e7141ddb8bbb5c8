// S1's baseline, in a process of its own: the least a server can do to answer the same no-change
// incremental sync. Bare node:http and pg, no framework, no broker. Per request: parse the body
// (JSON or form), look the bearer token up in memory (as the gateway's warm token cache does),
// one primary-key query for the user's high-water mark, and the same answer the product gives.
//
// Env: DATABASE_URL, POOL_SIZE (the product's sync service uses 10), TEMPLATE (the product's own
// no-change answer as JSON, so both serialise the same keys). Prints `LISTENING <port>`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pool, replyText, serveBaseline, userOfBearer } from './bare-server';

const template = JSON.parse(process.env['TEMPLATE'] ?? '{}') as Record<string, unknown>;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((ok, fail) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => ok(body));
    request.on('error', fail);
  });
}

function parseSyncToken(contentType: string | undefined, body: string): string | undefined {
  if (contentType?.startsWith('application/json')) {
    const value = (JSON.parse(body) as { sync_token?: unknown }).sync_token;
    return typeof value === 'string' ? value : undefined;
  }
  return new URLSearchParams(body).get('sync_token') ?? undefined;
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  replyText(response, status, JSON.stringify(body));
}

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'POST' || request.url !== '/api/v1/sync') return reply(response, 404, { error: 'not found' });
  const userId = userOfBearer(request.headers.authorization);
  if (!userId) return reply(response, 401, { error: 'unauthorized' });
  const syncToken = parseSyncToken(request.headers['content-type'], await readBody(request));
  // The product's token is base64url("d1:<user>:<version>:<notification cursor>").
  const [, owner, , cursor] = Buffer.from(syncToken ?? '', 'base64url').toString('utf8').split(':');
  if (owner !== userId || cursor === undefined) return reply(response, 400, { error: 'invalid sync token' });
  const { rows } = await pool.query<{ high_water: string }>('SELECT high_water::text AS high_water FROM sync.users WHERE id = $1', [userId]);
  if (!rows[0]) return reply(response, 404, { error: 'user not found' });
  reply(response, 200, { ...template, sync_token: Buffer.from(`d1:${userId}:${rows[0].high_water}:${cursor}`, 'utf8').toString('base64url') });
}

serveBaseline(answer);
