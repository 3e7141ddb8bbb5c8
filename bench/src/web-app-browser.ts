import { readdir, readlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { signInThroughApp as signInAsPerson } from '@doable/shared-testing/browser';
import type { Page } from 'playwright-core';
import { cpuMs } from './cpu';
import { until } from './poll';

/**
 * S14's browser: Debian's Chromium driven by playwright-core and a sign-in through the web app
 * itself, from the test kit the e2e tier and the docs' screenshots share.
 */
export { CHROMIUM_PATH, launchChromium } from '@doable/shared-testing/browser';

/** Where the web app keeps its OAuth token: this tab's sessionStorage (apps/web/src/api/oauth.ts). */
export const TOKEN_KEY = 'doable.token';

/**
 * Signs a person in as they would, pressing the Sign in button the app shows when signed out
 * (apps/web/src/views/app.tsx); back on `/app/` the app exchanges the code (PKCE, public client
 * `doable-web`). Returns the access token the app stored.
 */
export async function signInThroughApp(page: Page, baseUrl: string, person: { email: string; password: string }): Promise<string> {
  await signInAsPerson(page, baseUrl, person, 'Sign in');
  // Page code as text (bench compiles without the DOM's types), polled from here: waitForFunction
  // evaluates its predicate with eval inside the page, which the app's CSP refuses.
  const stored = `sessionStorage.getItem(${JSON.stringify(TOKEN_KEY)})`;
  return until(async () => (await page.evaluate<string | null>(stored)) ?? undefined, 'the token the web app stores after signing in', 15_000, 50);
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
