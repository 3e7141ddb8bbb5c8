import { randomBytes } from 'node:crypto';

/**
 * The OAuth 2.0 authorization-code flow driven over plain HTTP, as a browser without
 * JavaScript would: GET a form, keep its cookies, POST it back with the CSRF field. Used where a
 * test needs real OAuth tokens but not a real browser (the scope matrix).
 */

export interface PageResult {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly location: string | null;
}

/** A gateway answers or gives up well within this: past it, a test fails naming the request, not by its own timeout. */
const PAGE_TIMEOUT_MS = 60_000;

/** A cookie jar and manual redirects: every answer is seen as the server sent it. */
export class HttpBrowser {
  private readonly jar = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  /** `form`: fields as a browser sends them; a list is one field sent once per value (checkboxes). */
  async request(method: 'GET' | 'POST', path: string, form?: Record<string, string | readonly string[]>): Promise<PageResult> {
    const headers: Record<string, string> = { origin: new URL(this.baseUrl).origin };
    if (this.jar.size > 0) headers['cookie'] = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(new URL(path, this.baseUrl), { method, headers, body: form ? new URLSearchParams(Object.entries(form).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value] as [string, string]] : value.map((one): [string, string] => [name, one])))).toString() : undefined, redirect: 'manual', signal: AbortSignal.timeout(PAGE_TIMEOUT_MS) }).catch((error: unknown) => {
      throw new Error(`${method} ${path}: ${String(error)}`);
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0/i.test(cookie) || value === '') this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return { status: response.status, headers: response.headers, text: await response.text(), location: response.headers.get('location') };
  }

  get(path: string): Promise<PageResult> {
    return this.request('GET', path);
  }

  /** Posts a form the way the page's own form would: with the CSRF field it carries. */
  async submit(path: string, page: PageResult, fields: Record<string, string | readonly string[]>): Promise<PageResult> {
    return this.request('POST', path, { csrf: csrfOf(page.text), ...fields });
  }

  hasCookie(name: string): boolean {
    return this.jar.has(name);
  }
}

export function csrfOf(html: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no CSRF field in the page:\n${html.slice(0, 500)}`);
  return match[1];
}

function expectStatus(page: PageResult, statuses: number[], what: string): void {
  if (!statuses.includes(page.status)) throw new Error(`${what}: HTTP ${page.status}\n${page.text.slice(0, 800)}`);
}

export async function signUp(browser: HttpBrowser, account: { email: string; fullName: string; password: string }): Promise<PageResult> {
  const form = await browser.get('/auth/signup');
  expectStatus(form, [200], 'sign-up form');
  return browser.submit('/auth/signup', form, { email: account.email, full_name: account.fullName, password: account.password });
}

export async function logIn(browser: HttpBrowser, email: string, password: string): Promise<void> {
  const form = await browser.get('/auth/login');
  expectStatus(form, [200], 'log-in form');
  const done = await browser.submit('/auth/login', form, { email, password });
  expectStatus(done, [303], 'log-in');
}

export interface RegisteredApp {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** Registers an application in the console and reads its client id and (once shown) secret. */
export async function registerApp(browser: HttpBrowser, name: string, redirectUris: string[]): Promise<RegisteredApp> {
  const console = await browser.get('/auth/apps');
  expectStatus(console, [200], 'application console');
  const created = await browser.submit('/auth/apps', console, { name, redirect_uris: redirectUris.join('\n') });
  expectStatus(created, [201], 'register application');
  const secret = /data-testid="client-secret">([0-9a-f]+)</.exec(created.text)?.[1];
  const section = created.text.slice(0, created.text.indexOf('data-testid="client-secret"'));
  const ids = [...section.matchAll(/data-testid="client-id">([0-9a-f]+)</g)].map((match) => match[1]);
  if (!secret || ids.length === 0) throw new Error('the console did not show the client id and secret');
  return { clientId: ids[ids.length - 1], clientSecret: secret };
}

/** Asks for scopes, answers the consent page, and returns where the browser was sent (code or error). */
export async function authorize(
  browser: HttpBrowser,
  request: { clientId: string; scopes: string[]; state?: string; redirectUri?: string; decision?: 'allow' | 'deny'; codeChallenge?: string },
): Promise<URL> {
  const query = new URLSearchParams({ client_id: request.clientId, scope: request.scopes.join(','), state: request.state ?? randomBytes(8).toString('hex') });
  if (request.redirectUri) query.set('redirect_uri', request.redirectUri);
  if (request.codeChallenge) {
    query.set('code_challenge', request.codeChallenge);
    query.set('code_challenge_method', 'S256');
  }
  const consent = await browser.get(`/oauth/authorize?${query.toString()}`);
  if (consent.status === 303 && consent.location && !consent.location.startsWith('/')) return new URL(consent.location);
  expectStatus(consent, [200], 'consent page');
  const fields = Object.fromEntries([...consent.text.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)].map((match) => [match[1], decodeEntities(match[2])]));
  const decided = await browser.request('POST', '/oauth/authorize', { ...fields, decision: request.decision ?? 'allow' });
  expectStatus(decided, [303], 'consent decision');
  return new URL(decided.location!);
}

function decodeEntities(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

export async function exchangeCode(baseUrl: string, app: RegisteredApp, code: string): Promise<string> {
  const response = await fetch(new URL('/oauth/access_token', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: app.clientId, client_secret: app.clientSecret, code }),
  });
  const body = (await response.json()) as { access_token?: string; error?: string };
  if (response.status !== 200 || !body.access_token) throw new Error(`token exchange: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

export const CALLBACK_URL = 'http://127.0.0.1:9/oauth/callback';

interface Grantor {
  readonly browser: HttpBrowser;
  readonly app: RegisteredApp;
}

const grantors = new Map<string, Promise<Grantor>>();

/**
 * A token of exactly these scopes for an existing account, through the real flow: the account
 * gets a password (operators' subject), logs in, registers one application (once per account and
 * system), authorizes the scopes, and the code is exchanged for a token.
 */
export async function scopedTokenThroughOAuth(
  baseUrl: string,
  account: { userId: string; email: () => Promise<string>; setPassword: (password: string) => Promise<void> },
  scopes: readonly string[],
): Promise<string> {
  const key = `${baseUrl}|${account.userId}`;
  let grantor = grantors.get(key);
  if (!grantor) {
    grantor = (async () => {
      const password = `pw-${randomBytes(12).toString('hex')}`;
      await account.setPassword(password);
      const browser = new HttpBrowser(baseUrl);
      await logIn(browser, await account.email(), password);
      return { browser, app: await registerApp(browser, 'Scope matrix', [CALLBACK_URL]) };
    })();
    grantors.set(key, grantor);
    grantor.catch(() => grantors.delete(key));
  }
  const { browser, app } = await grantor;
  const landed = await authorize(browser, { clientId: app.clientId, scopes: [...scopes] });
  const code = landed.searchParams.get('code');
  if (!code) throw new Error(`authorization failed: ${landed.toString()}`);
  return exchangeCode(baseUrl, app, code);
}
