#!/usr/bin/env node
// `npm run screenshots`: regenerates the web app's pictures the docs show (apps/web/docs/*.png).
// Builds if dist/ is stale, starts the whole system as `npm start` does (its entry point, as a
// child, on a temporary data folder and a free port: a person's own ./data is never touched),
// fills a demo account through the public APIs (web-screenshots-demo.mjs), signs in through the
// app in Debian's Chromium and takes each view once its heading and rows are drawn. Everything it
// started is stopped and the temporary folder removed, whether it succeeds or not.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { buildIfStale } from './build.mjs';
import { repoRoot } from './swc-options.mjs';
import { COMMENTED_TASK, FRIEND, nameOwner, OWNER, ROWS, seedDemoData, SHARED_PROJECT } from './web-screenshots-demo.mjs';

const DOCS = join(repoRoot, 'apps', 'web', 'docs');
/** docs/web-app.md and apps/web/README.md link these names: keep them. */
const SHOTS = { today: 'today.png', project: 'project.png', task: 'task.png', phoneDark: 'phone-dark.png', phoneMenu: 'phone-menu.png', settings: 'settings.png' };
/** Each picture stays small enough for a repository's docs. */
const MAX_BYTES = 300 * 1024;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const started = Date.now();
const log = (line) => process.stdout.write(`[screenshots ${((Date.now() - started) / 1000).toFixed(1)} s] ${line}\n`);

/**
 * The environment of what this script starts: only what a process needs to run, so a shell's
 * DATABASE_URL, STORAGE_* or PUBLIC_URL (a real system's) can never reach the throwaway one.
 */
function childEnv(dataDir) {
  const kept = Object.fromEntries(['PATH', 'HOME', 'LANG', 'TMPDIR', 'CHROMIUM_PATH'].filter((key) => process.env[key] !== undefined).map((key) => [key, process.env[key]]));
  return { ...kept, DOABLE_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DOABLE_FIRST_EMAIL: OWNER.email, LOG_LEVEL: 'warn' };
}

/** Runs a built entry point as a child; resolves its stdout once `ready(stdout)` says so, rejects if it ends first. */
function startChild(entry, args, env, ready, what) {
  const child = spawn(process.execPath, [join(repoRoot, entry), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const done = new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  const answered = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} gave no answer in 90 s:\n${stdout}${stderr}`)), 90_000);
    child.stdout.on('data', () => {
      if (ready(stdout)) {
        clearTimeout(timer);
        resolve(stdout);
      }
    });
    void done.then(({ code, signal }) => {
      clearTimeout(timer);
      if (ready(stdout)) resolve(stdout);
      else reject(new Error(`${what} ended (${signal ?? `code ${code}`}) before it answered:\n${stdout}${stderr}`));
    });
  });
  return { child, done, answered };
}

const field = (text, label) => new RegExp(`${label}:\\s+(\\S+)`).exec(text)?.[1];

/** Stops the system: SIGTERM (it frees its data folder and closes the database), SIGKILL if it hangs. */
async function stopSystem(system) {
  if (system.child.exitCode !== null || system.child.signalCode !== null) return;
  system.child.kill('SIGTERM');
  const timer = setTimeout(() => system.child.kill('SIGKILL'), 15_000);
  await system.done;
  clearTimeout(timer);
}

/**
 * Waits until the signed-in app has drawn its full sync: the shared project in the navigation
 * (only the full sync brings projects) and the connection status quiet (no "Loading…", no
 * "Saving…"), polled from here because the app's CSP refuses waitForFunction's eval.
 */
async function settled(page) {
  // Attached, not visible: at a phone's width the navigation is a closed drawer.
  await page.getByRole('link', { name: SHARED_PROJECT, exact: true, includeHidden: true }).waitFor({ state: 'attached', timeout: 20_000 });
  const deadline = Date.now() + 20_000;
  while ((await page.getByTestId('connection').textContent())?.trim() !== '') {
    if (Date.now() > deadline) throw new Error(`the app did not settle: ${await page.getByTestId('connection').textContent()}`);
    await page.waitForTimeout(50);
  }
}

/** Opens a view by its address, as a typed link would, and waits for its heading and one of its rows. */
async function openView(page, hash, title, row) {
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor({ timeout: 10_000 });
  if (row) await page.getByRole('listitem', { name: row, exact: true }).first().waitFor({ timeout: 10_000 });
}

/** The page as it is now, at its viewport's size, without the blinking caret; answers the file's size. */
async function shoot(page, name) {
  const path = join(DOCS, name);
  // A view change moves focus to its heading (for screen readers); its focus ring is not the view.
  await page.evaluate('document.activeElement?.blur()');
  const png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
  await writeFile(path, png);
  if (png.length > MAX_BYTES) throw new Error(`${relative(repoRoot, path)} is ${Math.round(png.length / 1024)} KiB, over the ${MAX_BYTES / 1024} KiB budget`);
  log(`wrote ${relative(repoRoot, path)} (${Math.round(png.length / 1024)} KiB)`);
}

/** A Chromium context (its own storage, so its own sign-in) of one size and theme, signed in as the owner. */
async function signedInPage(browser, baseUrl, helpers, options) {
  const context = await browser.newContext({ ...options, timezoneId: 'UTC', locale: 'en-US' });
  const page = await context.newPage();
  await helpers.signInThroughApp(page, baseUrl, OWNER, 'Sign in');
  await settled(page);
  return page;
}

async function takeScreenshots(baseUrl, { sharedProjectId, taskId }) {
  // The shared Chromium launcher and sign-in (e2e and bench use them too), as built into dist/.
  const helpers = createRequire(import.meta.url)(join(repoRoot, 'dist', 'libs', 'shared', 'testing', 'src', 'browser.js'));
  const browser = await helpers.launchChromium();
  try {
    const desktop = await signedInPage(browser, baseUrl, helpers, { viewport: DESKTOP, colorScheme: 'light' });
    await openView(desktop, '#/today', 'Today', ROWS.today);
    await shoot(desktop, SHOTS.today);

    await openView(desktop, `#/project/${sharedProjectId}`, SHARED_PROJECT, ROWS.project);
    await desktop.getByRole('button', { name: `Comments on ${COMMENTED_TASK}`, exact: true }).click();
    const comments = desktop.getByRole('region', { name: `Comments on ${COMMENTED_TASK}`, exact: true });
    await comments.getByText('Great, then I will do the pricing part.').waitFor({ timeout: 10_000 });
    await shoot(desktop, SHOTS.project);

    // The task view, its description rendered as Markdown (the renderer is a chunk of its own: waited for).
    await desktop.evaluate(`location.hash = ${JSON.stringify(`#/task/${taskId}`)}`);
    await desktop.getByRole('heading', { level: 1, name: COMMENTED_TASK, exact: true }).waitFor({ timeout: 10_000 });
    await desktop.locator('[data-testid="task-description"][data-rendered="markdown"]').waitFor({ timeout: 10_000 });
    await desktop.getByRole('listitem', { name: 'Collect quotes from the beta users', exact: true }).waitFor({ timeout: 10_000 });
    await shoot(desktop, SHOTS.task);

    // Settings, when the app has the view: an address it does not know opens Today instead.
    await desktop.evaluate(`location.hash = '#/settings'`);
    const heading = desktop.getByRole('heading', { level: 1, name: /^(Settings|Today)$/ });
    await heading.waitFor({ timeout: 10_000 });
    if ((await heading.textContent())?.trim() === 'Settings') await shoot(desktop, SHOTS.settings);
    else log('no #/settings view in this app: settings.png not taken');

    const phone = await signedInPage(browser, baseUrl, helpers, { viewport: PHONE, colorScheme: 'dark', isMobile: true, hasTouch: true });
    await openView(phone, '#/upcoming', 'Upcoming', ROWS.upcoming);
    await shoot(phone, SHOTS.phoneDark);
    // The phone's navigation: a drawer behind Menu.
    await openView(phone, '#/today', 'Today', ROWS.today);
    await phone.getByRole('button', { name: 'Menu' }).click();
    await phone.getByRole('navigation', { name: 'Views' }).waitFor({ timeout: 10_000 });
    await shoot(phone, SHOTS.phoneMenu);
  } finally {
    await browser.close();
  }
}

async function main() {
  const built = await buildIfStale();
  log(built.skipped ?? `built dist/ in ${built.ms} ms`);
  const dataDir = await mkdtemp(join(tmpdir(), 'doable-screenshots-'));
  const env = childEnv(dataDir);
  let system;
  const stopAll = async () => {
    if (system) await stopSystem(system);
    await rm(dataDir, { recursive: true, force: true });
  };
  // Ctrl-C or a terminal closing: stop the system and drop the folder before leaving.
  const interrupted = (signal) => void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  process.once('SIGHUP', interrupted);
  try {
    // `npm start`'s own entry point: it creates the first account and prints its token once.
    system = startChild('dist/apps/embedded/src/main.js', [], env, (out) => /API token:/.test(out), 'the embedded system');
    const out = await system.answered;
    const baseUrl = field(out, 'base URL');
    const ownerToken = field(out, 'API token');
    if (!baseUrl || !ownerToken) throw new Error(`the embedded system printed no base URL and first account's token:\n${out}`);
    log(`system up at ${baseUrl} (data in ${dataDir})`);

    // The second person, as an operator adds one (the CLI finds the running system through the data folder).
    const cli = startChild('dist/apps/cli/src/main.js', ['create-account', '--email', FRIEND.email, '--name', FRIEND.name, '--password', FRIEND.password], env, (text) => /API token: \S+\n/.test(text), 'the CLI');
    const friendToken = field(await cli.answered, 'API token');
    await cli.done;

    await nameOwner(baseUrl, ownerToken);
    const demo = await seedDemoData(baseUrl, ownerToken, friendToken);
    log('demo data in place');
    await takeScreenshots(baseUrl, demo);
  } finally {
    await stopAll();
    log(`stopped the system and removed ${dataDir}`);
  }
}

try {
  await main();
  log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (err) {
  process.stderr.write(`npm run screenshots failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
}
