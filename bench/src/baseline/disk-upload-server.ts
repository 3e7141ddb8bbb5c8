// S10's baseline, in a process of its own: the least a server can do to take a raw upload
// (`POST /api/v1/uploads` with X-File-Name). Bare node:http, no framework, no broker, no
// database per request: the bearer token is looked up in memory (as the gateway's warm token
// cache does), the request body is piped to a file on disk, and the answer gives its size.
// `DELETE /api/v1/uploads?file_url=<name>` removes the file again (not timed), as the product's does.
// No fsync: JetStream's file store does not sync each write either (it syncs on an interval).
//
// Env: DATABASE_URL (for the tokens), DIR (where the files go). Prints `LISTENING <port>`.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { replyText, serveBaseline, userOfBearer } from './bare-server';

const dir = process.env['DIR'] ?? '';
if (!dir) throw new Error('DIR is required');

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  if (url.pathname !== '/api/v1/uploads') return replyText(response, 404, '{"error":"not found"}');
  if (!userOfBearer(request.headers.authorization)) return replyText(response, 401, '{"error":"unauthorized"}');
  if (request.method === 'DELETE') {
    const name = url.searchParams.get('file_url') ?? '';
    if (!/^[0-9a-f-]{36}$/.test(name)) return replyText(response, 404, '{"error":"no such upload"}');
    await unlink(join(dir, name));
    return replyText(response, 200, '{}');
  }
  if (request.method !== 'POST') return replyText(response, 404, '{"error":"not found"}');
  const fileName = request.headers['x-file-name'];
  if (typeof fileName !== 'string' || fileName === '') return replyText(response, 400, '{"error":"X-File-Name names a raw upload"}');
  const name = randomUUID();
  const file = createWriteStream(join(dir, name));
  await pipeline(request, file);
  replyText(response, 200, JSON.stringify({ file_name: fileName, file_size: file.bytesWritten, file_url: name }));
}

serveBaseline(answer);
