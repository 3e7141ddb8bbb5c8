import { readdir, readlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { cpuMs } from './cpu';
import { until } from './poll';

/**
 * S14's browser: Debian's Chromium driven by playwright-core (no bundled browser download), and a
 * sign-in through the web app itself. The e2e tier has the same two helpers
 * (e2e/support/browser.ts, web-app.ts); bench may not import from another app's folder, so
 * these few lines are its own.
 */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** Where the web app keeps its OAuth token: this tab's sessionStorage (apps/web/src/api/oauth.ts). */
export const TOKEN_KEY = 'doable.token';

/**
 * Signs a person in as they would: on `/app/` its Sign in button sends the browser to the
 * authorization endpoint and the log-in page; after it, back on `/app/` the app exchanges the code (PKCE, public client
 * `doable-web`). Returns the access token the app stored.
 */
export async function signInThroughApp(page: Page, baseUrl: string, person: { email: string; password: string }): Promise<string> {
  await page.goto(`${baseUrl}/app/`);
  // Signed out, the app shows a Sign in button (apps/web/src/views/app.tsx) rather than leaving at once.
  await page.getByRole('button', { name: 'Sign in' }).click({ timeout: 15_000 });
  await arriveAt(page, '/auth/login');
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await arriveAt(page, '/app/');
  // Page code as text (bench compiles without the DOM's types), polled from here: waitForFunction
  // evaluates its predicate with eval inside the page, which the app's CSP refuses.
  const stored = `sessionStorage.getItem(${JSON.stringify(TOKEN_KEY)})`;
  return until(async () => (await page.evaluate<string | null>(stored)) ?? undefined, 'the token the web app stores after signing in', 15_000, 50);
}

/** Waits for the browser to reach a path; failing, says where it is and what it shows instead of only timing out. */
async function arriveAt(page: Page, path: string): Promise<void> {
  try {
    await page.waitForURL((url) => url.pathname === path, { timeout: 15_000, waitUntil: 'commit' });
  } catch (err) {
    const shown = await page.locator('body').innerText({ timeout: 1_000 }).catch(() => '(no page)');
    throw new Error(`expected the browser at ${path}, it is at ${page.url()} showing: ${shown.slice(0, 500)}`, { cause: err });
  }
}

/**
 * CPU time (user + system, ms) of every Chromium process running now, from /proc: the browser,
 * its renderers, GPU and utility processes. A process that has exited takes its time with it, so
 * read it while the page being measured is still open.
 */
export async function chromiumCpuMs(): Promise<number> {
  let total = 0;
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const exe = await readlink(`/proc/${entry}/exe`).catch(() => '');
    if (!CHROMIUM_EXECUTABLES.has(basename(exe))) continue;
    total += (await cpuMs(Number(entry))) ?? 0;
  }
  return total;
}

/** What Debian's /usr/bin/chromium (a shell script) and Chrome's own builds run. */
const CHROMIUM_EXECUTABLES = new Set(['chromium', 'chrome', 'chrome-headless-shell']);
