import { randomBytes } from 'node:crypto';
import { http } from '@doable/shared-testing';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { type BrowserSession, type CallbackServer, openBrowserSession } from './support/browser';
import { HttpBrowser } from './support/oauth-flow';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

const PERIOD_MS = 30_000;
/** What a code of the previous step needs left of the current one to reach the server in time. */
const MARGIN_MS = 12_000;

/**
 * Two-factor log-in in a real headless Chromium, as a user lives it: enrol on the settings
 * pages (the code computed here, with otpauth, from the key the page shows), then log in and
 * consent to an application, which both need the code (or a recovery code, once); the first
 * generation's log-in, which has no field for a code, is refused.
 */
describe.each(MODES)('two-factor log-in (%s)', (mode) => {
  const { system } = useSystem(mode, { accounts: 0 });
  let session: BrowserSession;
  let context: BrowserContext;
  let page: Page;
  let callback: CallbackServer;
  const email = `totp-${randomBytes(4).toString('hex')}@example.test`;
  const password = 'a sturdy passphrase';
  let totp: TOTP;
  let recovery: string[] = [];
  let app: { clientId: string };
  /** The last step a code was used in: the server refuses that step and earlier ones (replay). */
  let lastStep = 0;

  /**
   * A code the server has not seen: the earliest unused step it accepts (±1 step around now),
   * so the three codes a mode needs rarely wait for time to move on (waiting for the next step
   * took 15 s a mode on average). The previous step's code only while at least MARGIN_MS of
   * the current step is left: it must still be accepted when the request arrives.
   */
  async function freshCode(): Promise<string> {
    for (;;) {
      const now = Date.now();
      const current = Math.floor(now / PERIOD_MS);
      const earliest = (current + 1) * PERIOD_MS - now >= MARGIN_MS ? current - 1 : current;
      const step = Math.max(lastStep + 1, earliest);
      if (step <= current + 1) {
        lastStep = step;
        return totp.generate({ timestamp: step * PERIOD_MS });
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  async function logInWithPassword(): Promise<void> {
    await page.goto(`${system.url}/auth/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  const sessionCookie = async () => (await context.cookies()).find((cookie) => cookie.name === 'doable_session');
  const errorTag = () => page.locator('#form-error').getAttribute('data-error-tag');

  beforeAll(async () => {
    session = await openBrowserSession();
    ({ context, page, callback } = session);
  });

  afterAll(() => session?.close());

  it('enrols on the settings pages: QR code and key, on only after a current code, recovery codes once', async () => {
    await page.goto(`${system.url}/auth/signup`);
    await page.getByLabel('Name').fill('Totp User');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.locator('[data-testid="api-token"]').waitFor();
    // An application to consent to later, registered while the account has no second factor.
    await page.goto(`${system.url}/auth/apps`);
    await page.getByLabel('Application name').fill('Totp App');
    await page.getByLabel('Redirect URLs (one per line)').fill(callback.url);
    await page.getByRole('button', { name: 'Register application' }).click();
    app = { clientId: (await page.locator('[data-testid="client-id"]').textContent())! };

    await page.goto(`${system.url}/auth/settings`);
    await page.getByRole('link', { name: 'Two-factor log-in settings' }).click();
    await expect(page.locator('[data-testid="two-factor-status"]').textContent()).resolves.toContain('off');
    await page.getByRole('button', { name: 'Set up two-factor log-in' }).click();
    await expect(page.locator('[data-testid="totp-qr"] svg').count()).resolves.toBe(1);
    const key = (await page.locator('[data-testid="totp-secret"]').textContent())!;
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    totp = new TOTP({ issuer: 'Doable', label: email, secret: Secret.fromBase32(key) });

    await page.getByLabel('Code from the app').fill(totp.generate({ timestamp: Date.now() - 3 * PERIOD_MS }));
    await page.getByRole('button', { name: 'Turn on two-factor log-in' }).click();
    await expect(errorTag()).resolves.toBe('TWO_FACTOR_CODE_INVALID');
    await expect(page.locator('[data-testid="totp-secret"]').textContent()).resolves.toBe(key);

    await page.getByLabel('Code from the app').fill(await freshCode());
    await page.getByRole('button', { name: 'Turn on two-factor log-in' }).click();
    recovery = (await page.locator('[data-testid="recovery-codes"] code').allTextContents()).map((code) => code.trim());
    expect(recovery).toHaveLength(10);
    await page.goto(`${system.url}/auth/settings/two-factor`);
    await expect(page.locator('[data-testid="two-factor-status"]').textContent()).resolves.toContain('on');
    await expect(page.content()).resolves.not.toContain(recovery[0]);
    const [row] = await system.sql<{ secret_sealed: string }>(`SELECT t.secret_sealed FROM auth.two_factor t JOIN auth.accounts a ON a.id = t.user_id WHERE a.email = $1`, [email]);
    expect(row.secret_sealed).not.toContain(key);
  });

  it('cannot log in on the pages without the code; a wrong code gives no session; the right one does', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/auth\/login$/);
    await logInWithPassword();
    await page.waitForURL(/\/auth\/login\/two-factor/);
    expect(await sessionCookie()).toBeUndefined();
    // The half-signed-in state opens no page.
    await page.goto(`${system.url}/auth/settings`);
    await page.waitForURL(/\/auth\/login\?next=/);

    await page.goto(`${system.url}/auth/login/two-factor`);
    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(errorTag()).resolves.toBe('TWO_FACTOR_CODE_INVALID');
    expect(await sessionCookie()).toBeUndefined();

    await page.getByLabel('Authentication code').fill(await freshCode());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/auth\/settings$/);
    expect(await sessionCookie()).toMatchObject({ httpOnly: true });
  });

  it('cannot consent to an application without the code; can with it', async () => {
    const state = randomBytes(8).toString('hex');
    await page.goto(`${system.url}/oauth/authorize?client_id=${app.clientId}&scope=data:read&state=${state}`);
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect(errorTag()).resolves.toBe('TWO_FACTOR_CODE_INVALID');
    expect(page.url().startsWith(callback.url)).toBe(false);

    await page.getByLabel('Authentication code').fill(await freshCode());
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.toString().startsWith(callback.url));
    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe(state);
    expect(landed.searchParams.get('code')).toMatch(/^[0-9a-f]{40}$/);
  });

  it('logs in with a recovery code once; the same code is refused the second time', async () => {
    await page.goto(`${system.url}/auth/settings`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await logInWithPassword();
    await page.getByLabel('Authentication code').fill(recovery[0].toLowerCase());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(/\/auth\/settings$/);

    await page.getByRole('button', { name: 'Log out' }).click();
    await logInWithPassword();
    await page.getByLabel('Authentication code').fill(recovery[0]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(errorTag()).resolves.toBe('TWO_FACTOR_CODE_INVALID');
    expect(await sessionCookie()).toBeUndefined();
  });

  it('refuses the first-generation log-in without a code (it has no field for one); a wrong password stays LOGIN_ERROR', async () => {
    const refused = await http(system.url, 'POST', '/API/login', { form: { email, password } });
    expect([refused.status, refused.body]).toEqual([401, 'TWO_FACTOR_REQUIRED']);
    const wrong = await http(system.url, 'GET', `/API/login?email=${encodeURIComponent(email)}&password=wrong`);
    expect([wrong.status, wrong.body]).toEqual([401, 'LOGIN_ERROR']);
  });

  it('a burst of parallel codes gets at most five looks; enrolling ends the sessions and tokens from before it', async () => {
    const account = await system.createAccount({ password: 'burst sturdy passphrase' });
    const [{ email: burstEmail }] = await system.sql<{ email: string }>('SELECT email FROM auth.accounts WHERE id = $1', [account.userId]);
    const [enroller, before] = [new HttpBrowser(system.url), new HttpBrowser(system.url)];
    for (const browser of [enroller, before]) await browser.submit('/auth/login', await browser.get('/auth/login'), { email: burstEmail, password: 'burst sturdy passphrase' });
    const started = await enroller.submit('/auth/settings/two-factor/start', await enroller.get('/auth/settings/two-factor'), {});
    const key = /data-testid="totp-secret">([A-Z2-7]+)</.exec(started.text)![1];
    const burstTotp = new TOTP({ issuer: 'Doable', label: burstEmail, secret: Secret.fromBase32(key) });
    expect((await enroller.submit('/auth/settings/two-factor/confirm', started, { otp: burstTotp.generate({ timestamp: Date.now() - PERIOD_MS }) })).status).toBe(200);
    // The session from before enrolment is over, and so is the account's API token.
    expect((await before.get('/auth/settings')).status).toBe(303);
    expect((await http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { sync_token: '*', resource_types: ['user'] } })).status).toBe(401);

    const stepper = new HttpBrowser(system.url);
    await stepper.submit('/auth/login', await stepper.get('/auth/login'), { email: burstEmail, password: 'burst sturdy passphrase' });
    const form = await stepper.get('/auth/login/two-factor');
    // Over HTTP the tries rarely interleave on a quiet machine; the integration spec proves the count holds when they do.
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => stepper.submit('/auth/login/two-factor', form, { otp: String(100000 + i) })));
    const statuses = replies.map((reply) => reply.status);
    // Four wrong, the fifth wrong starts the lock (429 too), every later one is refused unlooked.
    expect(statuses.filter((status) => status === 401)).toHaveLength(4);
    expect(statuses.filter((status) => status === 429)).toHaveLength(8);
    const right = await stepper.submit('/auth/login/two-factor', form, { otp: burstTotp.generate() });
    expect(right.status).toBe(429);
    expect(stepper.hasCookie('doable_session')).toBe(false);
  });

  it("a session of another account turns off only its own second factor; the pages take no bearer token", async () => {
    const other = await system.createAccount({ password: 'another sturdy passphrase' });
    const [{ email: otherEmail }] = await system.sql<{ email: string }>('SELECT email FROM auth.accounts WHERE id = $1', [other.userId]);
    const stranger = new HttpBrowser(system.url);
    const form = await stranger.get('/auth/login');
    await stranger.submit('/auth/login', form, { email: otherEmail, password: 'another sturdy passphrase' });
    const settings = await stranger.get('/auth/settings/two-factor');
    expect(settings.text).toContain('Two-factor log-in is <strong>off</strong>');
    const refused = await stranger.submit('/auth/settings/two-factor/disable', settings, { otp: recovery[1] });
    expect(refused.status).toBe(401);
    const bearer = await fetch(`${system.url}/auth/settings/two-factor`, { headers: { authorization: `Bearer ${other.token}` }, redirect: 'manual' });
    expect([bearer.status, bearer.headers.get('location')]).toEqual([303, '/auth/login?next=%2Fauth%2Fsettings%2Ftwo-factor']);
    const [row] = await system.sql<{ on: boolean }>(`SELECT t.enabled_at IS NOT NULL AS on FROM auth.two_factor t JOIN auth.accounts a ON a.id = t.user_id WHERE a.email = $1`, [email]);
    expect(row.on).toBe(true);
  });
});
