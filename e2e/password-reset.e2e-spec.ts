import { AuthEvents } from '@doable/contracts-auth';
import { http, waitFor } from '@doable/shared-testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './support/browser';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/**
 * A forgotten password reset from the link auth-oauth asked to be mailed, in a real headless
 * Chromium, in both modes: the link is read from the password-reset-requested event as it was
 * written to auth-oauth's outbox table (e2e/mail.e2e-spec.ts covers the mailed path: the same
 * event, rendered and sent to a real SMTP server). The new password logs in, the old one and the
 * used link fail, and "sign out everywhere" stops the account's API token on the gateway.
 */
describe.each(MODES)('password reset in a browser (%s)', (mode) => {
  const PASSWORD = 'a sturdy passphrase';
  const NEW_PASSWORD = 'a fresher passphrase';
  const { system } = useSystem(mode, { accounts: 0 });
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    context = await browser.newContext();
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  /** The newest reset link of the account, as the event in auth-oauth's outbox carries it. */
  async function linkFor(userId: string, count: number): Promise<string> {
    let links: string[] = [];
    await waitFor(
      async () => {
        const rows = await system.sql<{ link: string }>(`SELECT payload->>'link' AS link FROM auth.outbox WHERE subject = $1 AND payload->>'userId' = $2 ORDER BY id`, [
          AuthEvents.passwordResetRequested.name,
          userId,
        ]);
        links = rows.map((row) => row.link);
        return links.length === count;
      },
      `reset event ${count} of user ${userId}`,
      5_000,
    );
    const link = new URL(links[count - 1]);
    // Built on PUBLIC_URL (its default here), never on the request's Host: opened at this system's address.
    expect(link.origin).toBe('http://localhost:8080');
    expect(link.pathname).toBe('/auth/password/reset');
    return `${system.url}${link.pathname}${link.search}`;
  }

  async function askForReset(email: string): Promise<void> {
    await page.goto(`${system.url}/auth/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.locator('[data-testid="reset-requested"]').isVisible()).resolves.toBe(true);
  }

  async function logIn(email: string, password: string): Promise<boolean> {
    await page.goto(`${system.url}/auth/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForLoadState();
    const ok = new URL(page.url()).pathname === '/auth/settings';
    if (ok) {
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL(/\/auth\/login$/);
    }
    return ok;
  }

  const apiWorks = async (token: string) => (await http(system.url, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['projects'] } })).status === 200;

  it('answers an unknown address with the same page, and writes no event for it', async () => {
    const before = await system.sql<{ n: number }>(`SELECT count(*)::int AS n FROM auth.outbox WHERE subject = $1`, [AuthEvents.passwordResetRequested.name]);
    await askForReset(`nobody-${Date.now()}@example.test`);
    const after = await system.sql<{ n: number }>(`SELECT count(*)::int AS n FROM auth.outbox WHERE subject = $1`, [AuthEvents.passwordResetRequested.name]);
    expect(after[0].n).toBe(before[0].n);
  });

  it('resets the password from the link once: the new password logs in, the old one and the used link fail', async () => {
    const account = await system.createAccount({ password: PASSWORD });
    await askForReset(account.email);
    const link = await linkFor(account.userId, 1);

    await page.goto(link);
    await page.getByLabel('New password').fill('password123');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.locator('#form-error').getAttribute('data-error-tag')).resolves.toBe('COMMON_PASSWORD');
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.locator('[data-testid="password-changed"]').isVisible()).resolves.toBe(true);

    await expect(logIn(account.email, NEW_PASSWORD)).resolves.toBe(true);
    await expect(logIn(account.email, PASSWORD)).resolves.toBe(false);
    await expect(page.locator('#form-error').getAttribute('data-error-tag')).resolves.toBe('AUTHENTICATION_ERROR');

    const reused = await page.goto(link);
    expect(reused?.status()).toBe(400);
    await expect(page.locator('#form-error').getAttribute('data-error-tag')).resolves.toBe('RESET_LINK_INVALID');
    // Without "sign out everywhere", API tokens keep working.
    await expect(apiWorks(account.token)).resolves.toBe(true);
  });

  it('with "sign out everywhere", the API token the gateway has cached stops working', async () => {
    const account = await system.createAccount({ password: PASSWORD });
    // Cached by the gateway now: only the token-revoked event can explain a 401 soon after.
    await expect(apiWorks(account.token)).resolves.toBe(true);
    await askForReset(account.email);
    await page.goto(await linkFor(account.userId, 1));
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByLabel(/Sign out everywhere/).check();
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.locator('[data-testid="password-changed"]').isVisible()).resolves.toBe(true);
    await waitFor(async () => !(await apiWorks(account.token)), 'the revoked token to be refused', 5_000);
    await expect(logIn(account.email, NEW_PASSWORD)).resolves.toBe(true);
  });

  it('changes the address only once the new one confirms the mailed link, and sync serves the new address', async () => {
    const account = await system.createAccount({ password: PASSWORD });
    const newEmail = `moved-${Date.now()}@example.test`;
    await page.goto(`${system.url}/auth/login`);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/auth\/settings$/);
    await page.getByLabel('New email').fill(newEmail);
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change email' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain(newEmail);
    const userEmail = async () => ((await http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { sync_token: '*', resource_types: ['user'] } })).body.user as { email: string }).email;
    await expect(userEmail()).resolves.toBe(account.email);

    const [row] = await system.sql<{ link: string }>(`SELECT payload->>'link' AS link FROM auth.outbox WHERE subject = $1 AND payload->>'userId' = $2`, [AuthEvents.emailChangeRequested.name, account.userId]);
    const link = new URL(row.link);
    expect(link.pathname).toBe('/auth/email/confirm');
    await page.goto(`${system.url}${link.pathname}${link.search}`);
    await expect(page.locator('[data-testid="new-email"]').textContent()).resolves.toBe(newEmail);
    await page.getByRole('button', { name: 'Confirm new email' }).click();
    await expect(page.locator('[data-testid="email-changed"]').isVisible()).resolves.toBe(true);
    await waitFor(async () => (await userEmail()) === newEmail, 'sync to serve the confirmed address', 5_000);
    await page.goto(`${system.url}/auth/settings`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(logIn(newEmail, PASSWORD)).resolves.toBe(true);
  });
});
