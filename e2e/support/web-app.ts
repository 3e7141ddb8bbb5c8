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

/** A person with a password (`system.createAccount({ password })`), signed in through the app itself. */
export { signInThroughApp, type WebAppPerson } from '@doable/shared-testing/browser';

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
