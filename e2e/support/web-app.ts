import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './browser';

/**
 * The browser side of the web app's e2e (issue #35): a Chromium per person, signing in through
 * the app itself, and axe-core's accessibility check.
 */

/** One person's browser: its own Chromium context (cookies, storage), and a page in it. */
export interface WebAppBrowser {
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

/** Starts Chromium with one context and page; a context failing to open closes the browser before it is thrown. */
export async function openWebAppBrowser(): Promise<WebAppBrowser> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    return { browser, context, page, close: () => browser.close() };
  } catch (err) {
    await browser.close();
    throw err;
  }
}

/** A person with a password (`system.createAccount({ password })`). */
export interface WebAppPerson {
  readonly email: string;
  readonly password: string;
}

/**
 * Signs a person in through the app, as they would: open `/app/`, which sends the browser to
 * the authorization endpoint (at once, or when its `signInButton` is pressed: the real app shows
 * one) and from there to the log-in page; fill it in; the browser comes back to `/app/` with a
 * code the app exchanges (PKCE). Resolves once the browser is back on /app/; the caller waits for
 * whatever its app shows when signed in.
 */
export async function signInThroughApp(page: Page, baseUrl: string, person: WebAppPerson, signInButton?: string): Promise<void> {
  await page.goto(`${baseUrl}/app/`);
  if (signInButton) await page.getByRole('button', { name: signInButton, exact: true }).click({ timeout: 10_000 });
  await arriveAt(page, '/auth/login');
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await arriveAt(page, '/app/');
}

/** Waits for the browser to reach a path; failing, says where it is and what it shows instead of only timing out. */
async function arriveAt(page: Page, path: string): Promise<void> {
  try {
    await page.waitForURL((url) => url.pathname === path, { timeout: 15_000 });
  } catch (err) {
    const shown = await page.locator('body').innerText({ timeout: 1_000 }).catch(() => '(no page)');
    throw new Error(`expected the browser at ${path}, it is at ${page.url()} showing: ${shown.slice(0, 500)}`, { cause: err });
  }
}

/** What axe-core reports, cut down to what a failing assertion should print. */
export interface AxeFinding {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

let axeSource: string | undefined;

/**
 * axe-core's violations of WCAG 2.x A/AA (2.2 included) on the page as it is now. Injected with
 * `page.evaluate`, which runs through the DevTools protocol and so is not subject to the page's
 * Content-Security-Policy: the app is checked under its real, strict CSP. (A `<script>` tag,
 * `addScriptTag` or `addInitScript` would be refused by script-src 'self'; `bypassCSP` would
 * work but would switch the CSP off for the whole context.)
 */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  const loaded = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    type Result = { violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }> };
    // Runs in the page: the whole document (axe's default context), named without DOM types here.
    const axe = (globalThis as unknown as { axe: { run(options: unknown): Promise<Result> } }).axe;
    const result = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] } });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.map((node) => node.target.join(' ')) }));
  });
}

/** The violations a page must not have: serious or critical (issue #35's bar). */
export async function seriousAxeViolations(page: Page): Promise<AxeFinding[]> {
  return (await axeViolations(page)).filter((finding) => finding.impact === 'serious' || finding.impact === 'critical');
}
