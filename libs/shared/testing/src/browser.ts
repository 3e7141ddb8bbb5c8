import { type Browser, chromium, type Page } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core (no bundled browser download), and a sign-in
 * through the web app itself: what the e2e tier (e2e/support), the bench (S14) and the docs'
 * screenshots (tools/scripts/web-screenshots.mjs, from dist/) all drive. Its own entry point
 * (`@doable/shared-testing/browser`), not the package index: the many specs importing the test
 * kit do not load playwright-core.
 */

/** The Debian package `chromium` (installed by .ci/run when missing). */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** A real headless Chromium. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** A person with a password, who can log in to the pages. */
export interface WebAppPerson {
  readonly email: string;
  readonly password: string;
}

/**
 * Signs a person in through the app, as they would: open `/app/`, which sends the browser to
 * the authorization endpoint (at once, or when its `signInButton` is pressed: the real app shows
 * one) and from there to the log-in page; fill it in; the browser comes back to `/app/` with a
 * code the app exchanges (PKCE, public client `doable-web`). Resolves once the browser is back
 * on /app/; the caller waits for whatever its app shows when signed in.
 */
export async function signInThroughApp(page: Page, baseUrl: string, person: WebAppPerson, signInButton?: string): Promise<void> {
  await page.goto(`${baseUrl}/app/`);
  if (signInButton) await page.getByRole('button', { name: signInButton, exact: true }).click({ timeout: 15_000 });
  await arriveAt(page, '/auth/login');
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await arriveAt(page, '/app/');
}

/**
 * Waits for the browser to reach a path (its answer committed: what comes next waits for its own
 * elements, and S14 times the load itself); failing, says where it is and what it shows instead of
 * only timing out.
 */
async function arriveAt(page: Page, path: string): Promise<void> {
  try {
    await page.waitForURL((url) => url.pathname === path, { timeout: 15_000, waitUntil: 'commit' });
  } catch (err) {
    const shown = await page.locator('body').innerText({ timeout: 1_000 }).catch(() => '(no page)');
    throw new Error(`expected the browser at ${path}, it is at ${page.url()} showing: ${shown.slice(0, 500)}`, { cause: err });
  }
}
