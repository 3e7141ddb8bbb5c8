import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { ASSET_CACHE, WEB_APP_CSP } from './web-app-headers';
import { webAppRoutes } from './web-app-routes';

/** A raw request: fetch would normalise `..` out of the path before sending it. */
function get(port: number, path: string, method = 'GET', headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('webAppRoutes', () => {
  let top: string;
  let server: Server;
  let port: number;
  let missingPort: number;
  let missingServer: Server;

  beforeAll(async () => {
    top = mkdtempSync(join(tmpdir(), 'web-app-'));
    const dir = join(top, 'web');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title><script type="module" src="/app/assets/main-abc123.js"></script>');
    writeFileSync(join(dir, 'assets', 'main-abc123.js'), 'console.log(1)');
    writeFileSync(join(dir, 'assets', 'style-abc123.css'), 'body{}');
    writeFileSync(join(top, 'secret.txt'), 'outside');
    symlinkSync(join(top, 'secret.txt'), join(dir, 'assets', 'link.txt'));
    const app = express();
    app.use(webAppRoutes(dir));
    app.use((_req, res) => res.status(418).end());
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    const missing = express();
    missing.use(webAppRoutes(join(top, 'nowhere')));
    missingServer = createServer(missing);
    await new Promise<void>((resolve) => missingServer.listen(0, '127.0.0.1', resolve));
    missingPort = (missingServer.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await new Promise((resolve) => missingServer.close(resolve));
    rmSync(top, { recursive: true, force: true });
  });

  it('redirects /app to /app/, keeping the query (the OAuth callback carries code and state)', async () => {
    const answer = await get(port, '/app?code=c&state=s');
    expect(answer.status).toBe(301);
    expect(answer.headers['location']).toBe('/app/?code=c&state=s');
  });

  it.each(['/app/', '/app/today', '/app/project/123'])('answers %s with index.html, not cached, under the CSP', async (path) => {
    const answer = await get(port, path);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<title>app</title>');
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.headers['content-security-policy']).toBe(WEB_APP_CSP);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
  });

  it('answers hashed assets with their type, cached for good, with an ETag that yields 304', async () => {
    const js = await get(port, '/app/assets/main-abc123.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect(js.headers['cache-control']).toBe(ASSET_CACHE);
    const etag = String(js.headers['etag']);
    expect((await get(port, '/app/assets/main-abc123.js', 'GET', { 'if-none-match': etag })).status).toBe(304);
    expect((await get(port, '/app/assets/style-abc123.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('answers HEAD without a body', async () => {
    const answer = await get(port, '/app/assets/main-abc123.js', 'HEAD');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('');
    expect(answer.headers['content-length']).toBe('14');
  });

  it.each(['/app/../secret.txt', '/app/%2e%2e/secret.txt', '/app/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/app/assets/..%5c..%5csecret.txt', '/app/assets/link.txt', '/app/.hidden.js', '/app/assets/%E0%A4%A.js', '/app/assets/missing.js'])(
    'refuses %s with a coded 404 (traversal, a symlink out of the folder, a bad encoding, a missing file)',
    async (path) => {
      const answer = await get(port, path);
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body)).toMatchObject({ error_tag: 'NOT_FOUND' });
      expect(answer.body).not.toContain('outside');
    },
  );

  it('refuses a write with a coded 405 naming GET and HEAD', async () => {
    const answer = await get(port, '/app/', 'POST');
    expect(answer.status).toBe(405);
    expect(answer.headers['allow']).toBe('GET, HEAD');
  });

  it('leads a browser from the base URL to the app; a client asking for JSON gets what the server answers without it', async () => {
    const browser = await get(port, '/', 'GET', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(browser.status).toBe(302);
    expect(browser.headers['location']).toBe('/app/');
    expect((await get(port, '/', 'GET', { accept: 'application/json' })).status).toBe(418);
    expect((await get(port, '/')).status).toBe(418);
  });

  it('leaves other paths alone, /apple included', async () => {
    expect((await get(port, '/apple')).status).toBe(418);
    expect((await get(port, '/api/v1/sync')).status).toBe(418);
  });

  it('answers a coded 404 saying the app is not built when its folder is missing', async () => {
    const answer = await get(missingPort, '/app/');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toMatchObject({ error_tag: 'NOT_FOUND', error: expect.stringContaining('not built') });
  });
});
