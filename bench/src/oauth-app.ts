import { randomBytes } from 'node:crypto';

/**
 * S12's OAuth application with a webhook, made the way a developer and the users make one (the
 * same pages and calls as e2e/webhooks.e2e-spec.ts and e2e/support/oauth-flow.ts; e2e/ is not
 * compiled into dist/, so the few steps are restated here): the owner logs in and registers the
 * app in the console, every user logs in and allows it on the consent page (the code is
 * exchanged for a token), and the app sets its webhook with its client credentials.
 */

export interface BenchApp {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** Redirects to nowhere: the flow reads the code from the Location header, nothing follows it. */
const CALLBACK_URL = 'http://127.0.0.1:9/oauth/callback';

interface Page {
  readonly status: number;
  readonly text: string;
  readonly location: string | null;
}

/** A cookie jar and manual redirects: a browser without JavaScript. */
class Browser {
  private readonly jar = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  async request(method: 'GET' | 'POST', path: string, form?: Record<string, string>): Promise<Page> {
    const headers: Record<string, string> = { origin: new URL(this.baseUrl).origin };
    if (this.jar.size > 0) headers['cookie'] = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(new URL(path, this.baseUrl), { method, headers, body: form ? new URLSearchParams(form).toString() : undefined, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0/i.test(cookie) || value === '') this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return { status: response.status, text: await response.text(), location: response.headers.get('location') };
  }

  /** Posts a page's form back with the CSRF field it carries. */
  submit(path: string, page: Page, fields: Record<string, string>): Promise<Page> {
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1];
    if (!csrf) throw new Error(`no CSRF field on ${path}: ${page.text.slice(0, 300)}`);
    return this.request('POST', path, { csrf, ...fields });
  }
}

function expect(page: Page, status: number, what: string): void {
  if (page.status !== status) throw new Error(`${what}: HTTP ${page.status} ${page.text.slice(0, 300)}`);
}

async function logIn(baseUrl: string, email: string, password: string): Promise<Browser> {
  const browser = new Browser(baseUrl);
  const form = await browser.request('GET', '/auth/login');
  expect(form, 200, 'log-in form');
  expect(await browser.submit('/auth/login', form, { email, password }), 303, 'log-in');
  return browser;
}

/** The owner registers the app in the console and reads its id and secret (shown once). */
export async function registerApp(baseUrl: string, owner: { email: string; password: string }, name: string): Promise<BenchApp> {
  const browser = await logIn(baseUrl, owner.email, owner.password);
  const consolePage = await browser.request('GET', '/auth/apps');
  expect(consolePage, 200, 'application console');
  const created = await browser.submit('/auth/apps', consolePage, { name, redirect_uris: CALLBACK_URL });
  expect(created, 201, 'register application');
  const clientSecret = /data-testid="client-secret">([0-9a-f]+)</.exec(created.text)?.[1];
  const section = created.text.slice(0, created.text.indexOf('data-testid="client-secret"'));
  const clientId = [...section.matchAll(/data-testid="client-id">([0-9a-f]+)</g)].map((match) => match[1]).pop();
  if (!clientSecret || !clientId) throw new Error('the console did not show the client id and secret');
  return { clientId, clientSecret };
}

/** A user logs in, allows the app on the consent page, and the app exchanges the code for a token. */
export async function authorizeApp(baseUrl: string, user: { email: string; password: string }, app: BenchApp, scopes: readonly string[]): Promise<void> {
  const browser = await logIn(baseUrl, user.email, user.password);
  const query = new URLSearchParams({ client_id: app.clientId, scope: scopes.join(','), state: randomBytes(8).toString('hex') });
  const consent = await browser.request('GET', `/oauth/authorize?${query.toString()}`);
  expect(consent, 200, 'consent page');
  const fields = Object.fromEntries([...consent.text.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)].map((match) => [match[1], decodeEntities(match[2])]));
  const decided = await browser.request('POST', '/oauth/authorize', { ...fields, decision: 'allow' });
  expect(decided, 303, 'consent decision');
  const code = decided.location ? new URL(decided.location).searchParams.get('code') : null;
  if (!code) throw new Error(`no code after consent: ${decided.location}`);
  const response = await fetch(new URL('/oauth/access_token', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: app.clientId, client_secret: app.clientSecret, code }),
    signal: AbortSignal.timeout(30_000),
  });
  if (response.status !== 200) throw new Error(`token exchange: HTTP ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
}

/** The app's own webhook call (HTTP Basic client credentials). */
export async function configureWebhook(baseUrl: string, app: BenchApp, callbackUrl: string, events: readonly string[]): Promise<void> {
  const response = await fetch(new URL('/api/v1/apps/webhook', baseUrl), {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}` },
    body: JSON.stringify({ callback_url: callbackUrl, events }),
    signal: AbortSignal.timeout(30_000),
  });
  if (response.status !== 200) throw new Error(`webhook configuration: HTTP ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
}

function decodeEntities(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
