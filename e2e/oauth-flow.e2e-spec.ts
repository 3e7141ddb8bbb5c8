import { randomBytes } from 'node:crypto';
import { http, waitFor } from '@doable/shared-testing';
import type { BrowserContext, Page } from 'playwright-core';
import { type BrowserSession, type CallbackServer, openBrowserSession } from './support/browser';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/**
 * The whole authorization-code flow in a real headless Chromium, as a new user would live it:
 * sign up, register an application, authorize it (logging in on the way), exchange the code,
 * use the token, revoke it, and see it refused.
 */
describe.each(MODES)('OAuth 2.0 in a browser (%s)', (mode) => {
  // The run's shared system: the user it signs up, its application and its cookies are its own.
  const { system } = useSystem(mode, { accounts: 0 });
  let session: BrowserSession;
  let context: BrowserContext;
  let page: Page;
  let callback: CallbackServer;
  const email = `browser-${randomBytes(4).toString('hex')}@example.test`;
  const password = 'a sturdy passphrase';
  let app: { clientId: string; clientSecret: string };

  beforeAll(async () => {
    session = await openBrowserSession();
    ({ context, page, callback } = session);
  });

  afterAll(() => session?.close());

  it('signs up (refusing a weak password first) and shows the personal token once', async () => {
    await page.goto(`${system.url}/auth/signup`);
    await page.getByLabel('Name').fill('Browser User');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('password123');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.locator('#form-error').getAttribute('data-error-tag')).resolves.toBe('COMMON_PASSWORD');

    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.locator('[data-testid="api-token"]').textContent()).resolves.toMatch(/^[0-9a-f]{40}$/);
    const cookies = await context.cookies();
    const session = cookies.find((cookie) => cookie.name === 'doable_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });

  it('registers an application and shows its secret once', async () => {
    await page.getByRole('link', { name: 'Applications' }).click();
    await page.getByLabel('Application name').fill('Browser Test App');
    await page.getByLabel('Redirect URLs (one per line)').fill(callback.url);
    await page.getByRole('button', { name: 'Register application' }).click();
    const clientId = await page.locator('[data-testid="client-id"]').textContent();
    const clientSecret = await page.locator('[data-testid="client-secret"]').textContent();
    expect(clientId).toMatch(/^[0-9a-f]{32}$/);
    expect(clientSecret).toMatch(/^[0-9a-f]{32}$/);
    app = { clientId: clientId!, clientSecret: clientSecret! };
    await page.goto(`${system.url}/auth/apps`);
    await expect(page.locator('[data-testid="client-id"]').allTextContents()).resolves.toEqual([app.clientId]);
    await expect(page.locator('[data-testid="client-secret"]').count()).resolves.toBe(0);
  });

  it('logs in on the way to the consent page, grants, exchanges the code, uses and revokes the token', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/auth\/login$/);

    const state = randomBytes(8).toString('hex');
    await page.goto(`${system.url}/oauth/authorize?client_id=${app.clientId}&scope=data:read_write,data:delete&state=${state}`);
    await page.waitForURL(/\/auth\/login\?next=/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();

    await page.waitForURL(/\/oauth\/authorize\?/);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Authorize Browser Test App');
    const listed = await page.getByRole('listitem').allTextContents();
    expect(listed.join('\n')).toContain('Read and change your tasks, projects, labels and filters');
    expect(listed.join('\n')).toContain('Delete your tasks, labels and filters');

    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.toString().startsWith(callback.url));
    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe(state);
    const code = landed.searchParams.get('code')!;
    expect(code).toMatch(/^[0-9a-f]{40}$/);

    const exchanged = await http(system.url, 'POST', '/oauth/access_token', { json: { client_id: app.clientId, client_secret: app.clientSecret, code } });
    expect(exchanged.status).toBe(200);
    expect(exchanged.body).toEqual({ access_token: expect.stringMatching(/^[0-9a-f]{40}$/), token_type: 'Bearer' });
    const token = exchanged.body.access_token as string;

    const again = await http(system.url, 'POST', '/oauth/access_token', { json: { client_id: app.clientId, client_secret: app.clientSecret, code } });
    expect(again.body).toEqual({ error: 'bad_authorization_code' });

    const used = await http(system.url, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['projects'] } });
    expect(used.status).toBe(200);
    expect((used.body.projects as Array<{ name: string }>).map((project) => project.name)).toContain('Inbox');

    const revoked = await http(system.url, 'POST', '/sync/v9/access_tokens/revoke', { json: { client_id: app.clientId, client_secret: app.clientSecret, access_token: token } });
    expect(revoked.status).toBe(204);
    // The gateway had the token cached (30 s): only the revocation event can explain a 401 this soon.
    await waitFor(async () => (await http(system.url, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['projects'] } })).status === 401, 'the revoked token to be refused', 5_000);
  });

  it('sends the browser back with error=access_denied when the user denies', async () => {
    const state = randomBytes(8).toString('hex');
    await page.goto(`${system.url}/oauth/authorize?client_id=${app.clientId}&scope=data:read&state=${state}`);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL((url) => url.toString().startsWith(callback.url));
    const landed = new URL(page.url());
    expect(Object.fromEntries(landed.searchParams)).toEqual({ error: 'access_denied', state });
  });

  it('sends the browser back with error=invalid_scope for an unknown scope', async () => {
    await page.goto(`${system.url}/oauth/authorize?client_id=${app.clientId}&scope=data:everything&state=s1`);
    await page.waitForURL((url) => url.toString().startsWith(callback.url));
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ error: 'invalid_scope', state: 's1' });
  });
});
