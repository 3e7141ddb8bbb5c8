import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JSON_MEDIA_TYPE } from '@doable/contracts-common';
import express from 'express';
import { bodyForRewrites } from '../polls/kept-bodies';
import { sendReplyBody } from './reply-body';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

function send(port: number, path: string, method = 'GET', headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const { date: _date, ...rest } = res.headers;
        resolve({ status: res.statusCode ?? 0, headers: rest, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

// Multi-byte characters, escapes and a newline: what a decode and re-encode could alter.
const TEXT = JSON.stringify([{ id: '1', content: 'Café "ü" 🚀\nline', labels: ['€'] }, ...Array.from({ length: 300 }, (_, index) => ({ id: String(index), content: `task ${index}` }))]);

/** Status and headers compared whole, the body by its bytes (a diff of two long bodies would take long to print). */
function expectSameAnswer(actual: Answer, expected: Answer): void {
  expect({ status: actual.status, headers: actual.headers, sameBody: actual.body.equals(expected.body) }).toEqual({ status: expected.status, headers: expected.headers, sameBody: true });
}

/** The body as the services' text (how every body came before) or as the bytes NATS carried. */
const FORMS = { text: TEXT, bytes: Buffer.from(TEXT) } as const;
/** A kept poll answer's body, written again and again (its ETag made once). */
const KEPT = bodyForRewrites(Buffer.from(TEXT));

describe('sendReplyBody', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const app = express();
    app.all('/:form', (req, res) => {
      const contentType = typeof req.query['type'] === 'string' ? req.query['type'] : undefined;
      // A view of a larger buffer, as NATS hands a framed body over.
      const form = req.params['form'] === 'kept' ? KEPT : req.params['form'] === 'view' ? new Uint8Array(Buffer.concat([Buffer.from('#head\n'), FORMS.bytes])).subarray(6) : FORMS[req.params['form'] as keyof typeof FORMS];
      res.status(200);
      sendReplyBody(res, { status: 200, body: form, contentType });
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([JSON_MEDIA_TYPE, 'text/csv; charset=utf-8', 'text/html; charset=utf-8', 'application/json', 'text/event-stream', 'application/json; charset=UTF-8', undefined])(
    'answers a body of bytes as its text is answered: status, every header and the body (type %s)',
    async (type) => {
      const query = type === undefined ? '' : `?type=${encodeURIComponent(type)}`;
      const text = await send(port, `/text${query}`);
      expect(text.status).toBe(200);
      for (const form of ['bytes', 'view', 'kept', 'kept']) expectSameAnswer(await send(port, `/${form}${query}`), text);
    },
  );

  it('writes the very bytes of a JSON answer, with the length and ETag of its text', async () => {
    const answer = await send(port, `/bytes?type=${encodeURIComponent(JSON_MEDIA_TYPE)}`);
    expect(answer.body.equals(FORMS.bytes)).toBe(true);
    expect(answer.headers['content-type']).toBe(JSON_MEDIA_TYPE);
    expect(answer.headers['content-length']).toBe(String(FORMS.bytes.length));
    expect(answer.headers['etag']).toMatch(/^W\/"/);
  });

  it('answers 304 to a matching If-None-Match and a bodiless HEAD alike', async () => {
    const query = `?type=${encodeURIComponent(JSON_MEDIA_TYPE)}`;
    const { etag } = (await send(port, `/text${query}`)).headers;
    for (const [method, headers] of [
      ['GET', { 'if-none-match': String(etag) }],
      ['HEAD', {}],
    ] as const) {
      const text = await send(port, `/text${query}`, method, headers);
      for (const form of ['bytes', 'kept']) expectSameAnswer(await send(port, `/${form}${query}`, method, headers), text);
    }
  });

  it('answers a POST with the bytes, the type and the length of its text, and no ETag (no request can be conditional on it)', async () => {
    const query = `?type=${encodeURIComponent(JSON_MEDIA_TYPE)}`;
    const { etag: _etag, ...text } = (await send(port, `/text${query}`, 'POST')).headers;
    for (const form of ['bytes', 'view', 'kept']) {
      const answer = await send(port, `/${form}${query}`, 'POST');
      expect(answer.headers['etag']).toBeUndefined();
      expectSameAnswer(answer, { status: 200, headers: text, body: FORMS.bytes });
    }
  });
});
