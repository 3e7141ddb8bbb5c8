import express from 'express';
import type { AddressInfo } from 'node:net';
import { get, type Server } from 'node:http';
import { sendByteBody } from './byte-body';

describe('a reply body written as the bytes it came as', () => {
  const text = `{"items":[${Array.from({ length: 2_000 }, (_, index) => `{"content":"é${index} 🚀"}`).join(',')}]}`;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.all('/typed', (_req, res) => sendByteBody(res, Buffer.from(text), 'application/json'));
    app.all('/untyped', (_req, res) => sendByteBody(res, Buffer.from('"ok"'), undefined));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('answers a POST with the bytes, their length and the UTF-8 charset, without an ETag', async () => {
    const res = await fetch(`${base}/typed`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(res.headers.get('etag')).toBeNull();
    expect(await res.text()).toBe(text);
  });

  it('keeps the ETag of a GET, and its 304 when the client already has it', async () => {
    const res = await fetch(`${base}/typed`);
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    expect(await res.text()).toBe(text);
    // node:http, not fetch: fetch may revalidate on its own and hide the 304.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      get(`${base}/typed`, { headers: { 'if-none-match': etag! } }, (again) => {
        again.resume();
        resolve(again.statusCode);
      }).on('error', reject);
    });
    expect(status).toBe(304);
  });

  it('renders bytes without a media type as the JSON string they spell, as a text body was', async () => {
    const res = await fetch(`${base}/untyped`, { method: 'POST' });
    expect(await res.json()).toBe('"ok"');
  });
});
