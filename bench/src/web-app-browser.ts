import { readdir, readlink } from 'node:fs/promises';
import { basename } from 'node:path';
import { signInThroughApp as signInAsPerson } from '@doable/shared-testing/browser';
import type { Cookie, Page } from 'playwright-core';
import { cpuMs } from './cpu';
import { until } from './poll';

/**
 * S14's browser: Debian's Chromium driven by playwright-core and a sign-in through the web app
 * itself, from the test kit the e2e tier and the docs' screenshots share.
 */
export { CHROMIUM_PATH, launchChromium } from '@doable/shared-testing/browser';

/**
 * Signs a person in as they would, pressing the Sign in button the app shows when signed out
 * (apps/web/src/views/app.tsx); back on `/app/` the app asks the browser session for its token
 * (apps/web/src/api/app-session.ts). Returns the session cookie, which signs in any context it is
 * put in: what keeps a person signed in across tabs and restarts.
 */
export async function signInThroughApp(page: Page, baseUrl: string, person: { email: string; password: string }): Promise<Cookie[]> {
  await signInAsPerson(page, baseUrl, person, 'Sign in');
  return until(
    async () => {
      const session = (await page.context().cookies(baseUrl)).filter((cookie) => cookie.name === 'doable_session');
      return session.length > 0 ? session : undefined;
    },
    'the session cookie after signing in',
    15_000,
    50,
  );
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
