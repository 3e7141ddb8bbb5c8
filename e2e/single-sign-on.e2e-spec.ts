import { randomBytes } from 'node:crypto';
import { http, waitFor } from '@doable/shared-testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type CallbackServer, launchChromium, startCallbackServer } from './support/browser';
import { startTestOidcProvider, type TestOidcProvider, type TestPerson } from './support/oidc-test-provider';
import { MODES, type SystemUnderTest } from './support/system-view';
import { startOwnSystem } from './support/use-system';

/**
 * Single sign-on against a real OpenID Connect provider (oidc-provider, started here in a
 * process of its own), with Chromium driving the log-in page, the provider's sign-in and
 * consent, and the callback: accounts made on first sign-in, found again by (issuer, subject),
 * linked once by a verified email, refused for a domain not allowed; and the OAuth authorize
 * flow continuing through it. Two providers share the one issuer: `acme` (acme.test, accounts
 * made on first sign-in, passwords allowed) and `strict` (strict.test, no new accounts, no
 * passwords).
 */
describe.each(MODES)('single sign-on with OpenID Connect (%s)', (mode) => {
  const run = randomBytes(3).toString('hex');
  const people: Record<string, TestPerson> = {
    alice: { claims: { email: `alice-${run}@acme.test`, email_verified: true, name: 'Alice Acme' } },
    bob: { claims: { email: `bob-${run}@acme.test`, email_verified: true, name: 'Bob Acme' } },
    carol: { claims: { email: `carol-${run}@acme.test`, email_verified: true, name: 'Carol Acme' } },
    mallory: { claims: { email: `mallory-${run}@other.test`, email_verified: true, name: 'Mallory' } },
    eve: { claims: { email: `eve-${run}@acme.test`, email_verified: false, name: 'Eve' } },
    dave: { claims: { email: `dave-${run}@strict.test`, email_verified: true, name: 'Dave Strict' } },
  };
  const email = (login: string) => people[login].claims.email!;
  const clientSecret = randomBytes(24).toString('hex');
  let provider: TestOidcProvider;
  let system: SystemUnderTest;
  let browser: Browser;
  let callback: CallbackServer;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    provider = await startTestOidcProvider();
    const common = { issuer: provider.issuer, clientId: 'doable-e2e', clientSecret };
    const providers = [
      { id: 'acme', name: 'Acme ID', ...common, allowedDomains: ['acme.test'], createAccounts: true },
      { id: 'strict', name: 'Strict ID', ...common, allowedDomains: ['strict.test'], createAccounts: false, allowPasswords: false },
    ];
    system = await startOwnSystem(mode, { env: { OIDC_PROVIDERS: JSON.stringify(providers) } });
    await provider.configure({ clientId: 'doable-e2e', clientSecret, redirectUris: [`${system.url}/auth/sso/callback`], accounts: people });
    browser = await launchChromium();
    callback = await startCallbackServer();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await callback?.close();
    await system?.close();
    await provider?.close();
  });

  /** A fresh browser: no session here, none at the provider. */
  async function newPage(): Promise<Page> {
    const context = await browser.newContext();
    contexts.push(context);
    return context.newPage();
  }

  /**
   * From the log-in page: the provider's button, then the provider's sign-in (as `login`) and
   * consent when it asks (a provider session of this browser may skip both), back to Doable.
   */
  async function signIn(page: Page, login: string, providerName = 'Acme ID'): Promise<void> {
    await page.getByRole('button', { name: `Sign in with ${providerName}` }).click();
    for (let step = 0; step < 4; step++) {
      await page.waitForURL((url) => !url.href.startsWith(provider.issuer) || url.pathname.startsWith('/interaction/'));
      if (!page.url().startsWith(provider.issuer)) return;
      const before = page.url();
      if ((await page.locator('input[name="login"]').count()) > 0) {
        await page.locator('input[name="login"]').fill(login);
        await page.locator('input[name="password"]').fill('anything');
        await page.getByRole('button', { name: 'Sign-in' }).click();
      } else {
        await page.getByRole('button', { name: 'Continue' }).click();
      }
      await page.waitForURL((url) => url.href !== before);
    }
    throw new Error(`still at the provider: ${page.url()}`);
  }

  const accountsWith = async (address: string) => system.sql<{ id: string; password_hash: string | null; full_name: string }>('SELECT id::text AS id, password_hash, full_name FROM auth.accounts WHERE lower(email) = $1', [address]);
  const identitiesOf = async (userId: string) => system.sql<{ issuer: string; subject: string; provider_id: string }>('SELECT issuer, subject, provider_id FROM auth.sso_identities WHERE user_id = $1', [userId]);

  it('shows a button per provider on the log-in page, each keeping the page\'s next', async () => {
    const page = await newPage();
    await page.goto(`${system.url}/auth/login?next=${encodeURIComponent('/oauth/authorize?client_id=x')}`);
    const links = page.locator('a[data-sso-provider]');
    await expect(links.allTextContents()).resolves.toEqual(['Sign in with Acme ID', 'Sign in with Strict ID']);
    await expect(links.first().getAttribute('href')).resolves.toBe(`/auth/sso/start?provider=acme&next=${encodeURIComponent('/oauth/authorize?client_id=x')}`);
  });

  let alice: { userId: string };
  let aliceCallback: string;

  it('gives a person from the provider an account on first sign-in, the way sign-up does', async () => {
    const page = await newPage();
    page.on('request', (request) => {
      if (request.url().includes('/auth/sso/callback')) aliceCallback = request.url();
    });
    // PKCE, nonce and state on the way out.
    const outgoing = page.waitForRequest((request) => request.url().startsWith(`${provider.issuer}/auth?`));
    await page.goto(`${system.url}/auth/login`);
    const signedIn = signIn(page, 'alice');
    const authorization = new URL((await outgoing).url());
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorization.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorization.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorization.searchParams.get('redirect_uri')).toBe(`${system.url}/auth/sso/callback`);
    await signedIn;

    await page.waitForURL(/\/auth\/settings$/);
    await expect(page.locator('main p').first().textContent()).resolves.toBe(`Logged in as Alice Acme (${email('alice')}).`);
    const [account, ...others] = await accountsWith(email('alice'));
    expect(others).toEqual([]);
    expect(account).toMatchObject({ password_hash: null, full_name: 'Alice Acme' });
    await expect(identitiesOf(account.id)).resolves.toEqual([{ issuer: provider.issuer, subject: 'alice', provider_id: 'acme' }]);
    // userCreated reached sync through the outbox, as after a sign-up: the account has its profile.
    await waitFor(() => system.profileExists(account.id), 'the profile of the SSO-made account');
    alice = { userId: account.id };
    const session = (await page.context().cookies()).find((cookie) => cookie.name === 'doable_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });

  it('answers a callback once, and only to the browser that started it', async () => {
    expect(aliceCallback).toContain('code=');
    const elsewhere = await http(system.url, 'GET', new URL(aliceCallback).pathname + new URL(aliceCallback).search);
    expect(elsewhere.status).toBe(400);
    expect(String(elsewhere.body)).toContain('data-error-tag="SSO_EXPIRED"');
  });

  it("refuses another browser's code and state in a browser with a sign-in of its own under way", async () => {
    // The victim's browser starts a sign-in and stays at the provider's form.
    const victim = await newPage();
    await victim.goto(`${system.url}/auth/login`);
    await victim.getByRole('button', { name: 'Sign in with Acme ID' }).click();
    await victim.locator('input[name="login"]').waitFor();
    // The attacker signs in as themselves; their browser has dropped its own sign-in cookie, so
    // Doable refuses their callback without spending the code, which stays good to plant.
    const attacker = await newPage();
    let planted: string | undefined;
    attacker.on('request', (request) => {
      if (request.url().includes('/auth/sso/callback')) planted = request.url();
    });
    await attacker.goto(`${system.url}/auth/login`);
    await attacker.getByRole('button', { name: 'Sign in with Acme ID' }).click();
    await attacker.locator('input[name="login"]').waitFor();
    await attacker.context().clearCookies({ name: 'doable_sso' });
    await attacker.locator('input[name="login"]').fill('mallory');
    await attacker.locator('input[name="password"]').fill('anything');
    await attacker.getByRole('button', { name: 'Sign-in' }).click();
    await attacker.getByRole('button', { name: 'Continue' }).click();
    await waitFor(() => planted !== undefined, "the attacker's callback");
    await expect(attacker.locator('#form-error').getAttribute('data-error-tag')).resolves.toBe('SSO_EXPIRED');

    const answer = await victim.goto(planted!);
    expect(answer?.status()).toBe(400);
    await expect(victim.locator('#form-error').getAttribute('data-error-tag')).resolves.toBe('SSO_FAILED');
    expect((await victim.context().cookies()).find((cookie) => cookie.name === 'doable_session')).toBeUndefined();
  });

  it('finds the same account by its subject on the next sign-in', async () => {
    const page = await newPage();
    await page.goto(`${system.url}/auth/login`);
    await signIn(page, 'alice');
    await page.waitForURL(/\/auth\/settings$/);
    await expect(accountsWith(email('alice'))).resolves.toEqual([expect.objectContaining({ id: alice.userId })]);
    await expect(identitiesOf(alice.userId)).resolves.toHaveLength(1);

    // Logged out of Doable, still signed in at the provider: one click signs in again.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/auth\/login$/);
    await signIn(page, 'alice');
    await page.waitForURL(/\/auth\/settings$/);
    await expect(page.locator('main p').first().textContent()).resolves.toContain(email('alice'));
  });

  it("links an existing password account by its verified email once its password shows it is the person's, and keeps the password", async () => {
    const page = await newPage();
    await page.goto(`${system.url}/auth/signup`);
    await page.getByLabel('Name').fill('Bob Password');
    await page.getByLabel('Email').fill(email('bob'));
    await page.getByLabel('Password').fill('a sturdy passphrase');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.locator('[data-testid="api-token"]').waitFor();
    const [bob] = await accountsWith(email('bob'));
    await expect(identitiesOf(bob.id)).resolves.toEqual([]);

    // The sign-up never proved the address (issue #44): the sign-on asks for the account's password first.
    const sso = await newPage();
    await sso.goto(`${system.url}/auth/login`);
    const proofPage = sso.waitForResponse((response) => response.url().includes('/auth/sso/callback'));
    await signIn(sso, 'bob');
    expect((await proofPage).status()).toBe(409);
    await expect(sso.locator('#form-error').getAttribute('data-error-tag')).resolves.toBe('ACCOUNT_NOT_VERIFIED');
    await expect(identitiesOf(bob.id)).resolves.toEqual([]);
    await sso.getByLabel("The account's password").fill('a sturdy passphrase');
    await sso.getByRole('button', { name: 'Link with the password' }).click();
    await sso.waitForURL(/\/auth\/settings$/);
    await expect(sso.locator('main p').first().textContent()).resolves.toBe(`Logged in as Bob Password (${email('bob')}).`);
    await expect(accountsWith(email('bob'))).resolves.toEqual([expect.objectContaining({ id: bob.id, password_hash: expect.stringMatching(/^scrypt\$/) })]);
    await expect(identitiesOf(bob.id)).resolves.toEqual([{ issuer: provider.issuer, subject: 'bob', provider_id: 'acme' }]);

    const password = await http(system.url, 'POST', '/API/login', { form: { email: email('bob'), password: 'a sturdy passphrase' } });
    expect(password.status).toBe(200);
  });

  // Issue #44, finding 2: an account made by sign-up with the victim's address waits for the victim's first sign-on.
  it("never hands a pre-made account to the address's owner: a mailed link links it and ends every credential its maker had", async () => {
    const maker = await newPage();
    await maker.goto(`${system.url}/auth/signup`);
    await maker.getByLabel('Name').fill('Not Carol');
    await maker.getByLabel('Email').fill(email('carol'));
    await maker.getByLabel('Password').fill('the makers passphrase');
    await maker.getByRole('button', { name: 'Sign up' }).click();
    const makersToken = (await maker.locator('[data-testid="api-token"]').textContent())!;
    const [made] = await accountsWith(email('carol'));

    const victim = await newPage();
    await victim.goto(`${system.url}/auth/login`);
    await signIn(victim, 'carol');
    await expect(victim.locator('#form-error').getAttribute('data-error-tag')).resolves.toBe('ACCOUNT_NOT_VERIFIED');
    expect((await victim.context().cookies()).find((cookie) => cookie.name === 'doable_session')).toBeUndefined();
    await victim.getByRole('button', { name: 'Mail a confirmation link' }).click();
    await victim.locator('[data-testid="sso-proof-mailed"]').waitFor();
    const [mailed] = await waitFor(async () => {
      const rows = await system.sql<{ link: string }>(`SELECT payload->>'link' AS link FROM auth.outbox WHERE subject = 'auth.evt.address-confirmation-requested.v1' AND payload->>'userId' = $1 AND payload->>'reason' = 'sso-link'`, [made.id]);
      return rows.length > 0 ? rows : undefined;
    }, 'the link mailed to the address');
    const link = new URL(mailed.link);
    await victim.goto(`${system.url}${link.pathname}${link.search}`);
    await expect(identitiesOf(made.id)).resolves.toEqual([]);
    await victim.getByRole('button', { name: 'Confirm and link' }).click();
    await victim.locator('[data-testid="sso-linked"]').waitFor();
    await expect(identitiesOf(made.id)).resolves.toEqual([{ issuer: provider.issuer, subject: 'carol', provider_id: 'acme' }]);

    // The maker's token and password are dead; the victim's next sign-on lands in the account.
    await waitFor(async () => (await http(system.url, 'GET', '/api/v1/user', { token: makersToken })).status === 401, "the maker's token refused");
    const password = await http(system.url, 'POST', '/API/login', { form: { email: email('carol'), password: 'the makers passphrase' } });
    expect(password.status).not.toBe(200);
    await victim.goto(`${system.url}/auth/login`);
    await signIn(victim, 'carol');
    await victim.waitForURL(/\/auth\/settings$/);
    await expect(accountsWith(email('carol'))).resolves.toEqual([expect.objectContaining({ id: made.id, password_hash: null })]);
  });

  it.each([
    ['mallory', 'DOMAIN_NOT_ALLOWED'],
    ['eve', 'EMAIL_NOT_VERIFIED'],
  ])('refuses %s (%s) with a page, making no account and no session', async (login, tag) => {
    const page = await newPage();
    await page.goto(`${system.url}/auth/login`);
    const answer = page.waitForResponse((response) => response.url().includes('/auth/sso/callback'));
    await signIn(page, login);
    expect((await answer).status()).toBe(403);
    await expect(page.locator('#form-error').getAttribute('data-error-tag')).resolves.toBe(tag);
    await expect(accountsWith(email(login))).resolves.toEqual([]);
    expect((await page.context().cookies()).find((cookie) => cookie.name === 'doable_session')).toBeUndefined();
  });

  it('refuses an unknown person where the provider makes no accounts, and passwords for its domain', async () => {
    const page = await newPage();
    await page.goto(`${system.url}/auth/login`);
    await signIn(page, 'dave', 'Strict ID');
    await expect(page.locator('#form-error').getAttribute('data-error-tag')).resolves.toBe('NO_ACCOUNT');
    await expect(accountsWith(email('dave'))).resolves.toEqual([]);

    await page.goto(`${system.url}/auth/login`);
    await page.getByLabel('Email').fill(email('dave'));
    await page.getByLabel('Password').fill('a sturdy passphrase');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.locator('#form-error').getAttribute('data-error-tag')).resolves.toBe('PASSWORD_LOGIN_DISABLED');
    const legacy = await http(system.url, 'POST', '/API/login', { form: { email: email('dave'), password: 'a sturdy passphrase' } });
    expect([legacy.status, legacy.body]).toEqual([403, 'LOGIN_ERROR']);
  });

  // Issue #44, finding 3: an account of another domain took dave@strict.test by user_update, at once and unchecked.
  it("refuses the Sync API's move to a domain that must sign on, and moves no account before its new address confirms", async () => {
    const other = await system.createAccount({ password: 'a sturdy passphrase' });
    const update = async (args: Record<string, unknown>) => {
      const uuid = randomBytes(8).toString('hex');
      const reply = await http(system.url, 'POST', '/api/v1/sync', { token: other.token, json: { commands: [{ type: 'user_update', uuid, args: { current_password: 'a sturdy passphrase', ...args } }] } });
      expect(reply.status).toBe(200);
      return (reply.body as { sync_status: Record<string, unknown> }).sync_status[uuid];
    };
    await expect(update({ email: email('dave') })).resolves.toMatchObject({ error_tag: 'PASSWORD_LOGIN_DISABLED', http_code: 403 });
    // Elsewhere: accepted, but the address stays until the new one confirms (the user object too).
    const elsewhere = `elsewhere-${run}@acme.test`;
    await expect(update({ email: elsewhere })).resolves.toBe('ok');
    await expect(accountsWith(elsewhere)).resolves.toEqual([]);
    const user = await http(system.url, 'POST', '/api/v1/sync', { token: other.token, json: { sync_token: '*', resource_types: ['user'] } });
    expect((user.body as { user: { email: string } }).user.email).toBe(other.email);
    // The first sign-on of the address makes its own account.
    const page = await newPage();
    await page.goto(`${system.url}/auth/login`);
    await signIn(page, 'dave', 'Strict ID');
    await expect(page.locator('#form-error').getAttribute('data-error-tag')).resolves.toBe('NO_ACCOUNT');
  });

  it('continues the OAuth authorize flow through single sign-on', async () => {
    const page = await newPage();
    await page.goto(`${system.url}/auth/login`);
    await signIn(page, 'alice');
    await page.waitForURL(/\/auth\/settings$/);
    await page.getByRole('link', { name: 'Applications' }).click();
    await page.getByLabel('Application name').fill('SSO Test App');
    await page.getByLabel('Redirect URLs (one per line)').fill(callback.url);
    await page.getByRole('button', { name: 'Register application' }).click();
    const app = { clientId: (await page.locator('[data-testid="client-id"]').textContent())!, clientSecret: (await page.locator('[data-testid="client-secret"]').textContent())! };
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/auth\/login$/);

    await page.goto(`${system.url}/oauth/authorize?client_id=${app.clientId}&scope=data:read&state=sso-state`);
    await page.waitForURL(/\/auth\/login\?next=/);
    await signIn(page, 'alice');
    await page.waitForURL(/\/oauth\/authorize\?/);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Authorize SSO Test App');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.toString().startsWith(callback.url));
    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe('sso-state');
    const exchanged = await http(system.url, 'POST', '/oauth/access_token', { json: { client_id: app.clientId, client_secret: app.clientSecret, code: landed.searchParams.get('code') } });
    expect(exchanged.status).toBe(200);
    const used = await http(system.url, 'POST', '/api/v1/sync', { token: exchanged.body.access_token as string, json: { sync_token: '*', resource_types: ['user'] } });
    expect(used.status).toBe(200);
    expect(used.body.user).toMatchObject({ email: email('alice') });
  });

  it('answers an unknown provider 404 and a callback without a sign-in under way 400', async () => {
    const unknown = await http(system.url, 'GET', '/auth/sso/start?provider=nobody');
    expect(unknown.status).toBe(404);
    expect(String(unknown.body)).toContain('data-error-tag="SSO_PROVIDER_NOT_FOUND"');
    const stray = await http(system.url, 'GET', '/auth/sso/callback?code=abc&state=def');
    expect(stray.status).toBe(400);
    expect(String(stray.body)).toContain('data-error-tag="SSO_EXPIRED"');
  });
});
