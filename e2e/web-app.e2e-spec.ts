import { rawRequest } from './support/raw-http';
import { MODES, type SystemUnderTest } from './support/system-view';
import { startOwnSystem } from './support/use-system';
import { FIXTURE_SCRIPT, FIXTURE_STYLE, type FixtureApp, writeFixtureApp } from './support/web-app-fixture';
import { openWebAppBrowser, seriousAxeViolations, signInThroughApp, type WebAppBrowser } from './support/web-app';

const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";
const PASSWORD = 'a web app passphrase';

/**
 * The gateway's side of the web app (issue #35), in both run modes, against a fixture app this
 * suite writes and points WEB_APP_DIR at (so it tests the serving, the OAuth client and the
 * harness, not the app's own code): /app served with its CSP and cache rules, hashed assets
 * immutable, traversal refused; and in Chromium, a person signs in through the app (PKCE with
 * doable-web, no consent page), the CSP holds (the page's inline script does not run) and
 * axe-core finds no serious violation.
 */
describe.each(MODES)('web app at /app (%s)', (mode) => {
  let fixture: FixtureApp;
  let system: SystemUnderTest;
  let browser: WebAppBrowser | undefined;

  beforeAll(async () => {
    fixture = writeFixtureApp();
    system = await startOwnSystem(mode, { env: { WEB_APP_DIR: fixture.dir } });
  });

  afterAll(async () => {
    await browser?.close();
    await system?.close();
    fixture?.remove();
  });

  it('redirects /app to /app/ and answers every app path with index.html, not cached, under the strict CSP', async () => {
    const bare = await fetch(`${system.url}/app?code=c&state=s`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/app/?code=c&state=s');
    for (const path of ['/app/', '/app/today', '/app/project/2203306141']) {
      const page = await fetch(`${system.url}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(page.headers.get('content-security-policy')).toBe(CSP);
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(await page.text()).toContain('<title>Doable fixture app</title>');
    }
  });

  it('serves hashed assets with their types, immutable for a year, with ETags that answer 304, and HEAD', async () => {
    const script = await fetch(`${system.url}/app/${FIXTURE_SCRIPT}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = script.headers.get('etag')!;
    expect(etag).toBeTruthy();
    // Raw: fetch adds `Cache-Control: no-cache` to a conditional request, which rightly defeats the 304.
    expect((await rawRequest(system.url, { method: 'GET', path: `/app/${FIXTURE_SCRIPT}`, headers: { 'if-none-match': etag }, body: Buffer.alloc(0) })).status).toBe(304);
    expect((await fetch(`${system.url}/app/${FIXTURE_STYLE}`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    const head = await fetch(`${system.url}/app/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it.each(['/app/../auth/login', '/app/%2e%2e/%2e%2e/etc/passwd', '/app/assets/..%2f..%2foutside.txt', '/app/assets/outside.txt', '/app/assets/missing-0000.js', '/app/%00.js'])(
    'refuses %s with a coded 404 and nothing from outside the app',
    async (path) => {
      const answer = await rawRequest(system.url, { method: 'GET', path, body: Buffer.alloc(0) });
      expect(answer.status).toBe(404);
      expect(answer.body?.error_tag).toBe('NOT_FOUND');
      expect(answer.text).not.toContain('not part of the app');
      expect(answer.text).not.toContain('root:');
    },
  );

  it('refuses a write to /app with a coded 405', async () => {
    const answer = await fetch(`${system.url}/app/`, { method: 'POST', body: 'x' });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, HEAD');
  });

  it('signs a person in through the app in Chromium, under the CSP, with no serious axe-core violation', async () => {
    const { email } = await system.createAccount({ password: PASSWORD });
    browser = await openWebAppBrowser();
    const { page } = browser;
    const refusedByCsp: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) refusedByCsp.push(message.text());
    });
    await signInThroughApp(page, system.url, { email, password: PASSWORD });
    await page.getByText(`Signed in as ${email}`).waitFor({ timeout: 10_000 });
    // Back on /app/ with the code gone from the address bar, without a consent page on the way.
    expect(new URL(page.url()).pathname).toBe('/app/');
    expect(new URL(page.url()).search).toBe('');
    // The CSP held: the page's inline script was refused, the app's own script ran.
    expect(await page.title()).toBe('Doable fixture app');
    expect(refusedByCsp.some((text) => /inline/i.test(text))).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
