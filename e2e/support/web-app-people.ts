import { http } from '@doable/shared-testing';
import type { Browser, BrowserContext, BrowserContextOptions, Page, Request, Response } from 'playwright-core';
import { launchChromium } from './browser';
import { contextWithSwitch } from './network-switch';
import type { Account, SystemUnderTest } from './system-view';
import { signInThroughApp } from './web-app';

/**
 * People using the web app in the e2e (issue #35): one Chromium, a context per person (their
 * own cookies, storage and IndexedDB, their own connection to take offline), each signed in
 * through the app with an account of the test's own.
 */

export const PASSWORD = 'a web app passphrase';

/** One person: their account (for API reads and setup) and their signed-in page. */
export interface AppPerson {
  readonly account: Account;
  readonly context: BrowserContext;
  readonly page: Page;
  /** What the page heard and asked, with times (push messages, sync requests): a late screen's story. */
  readonly traffic: Array<{ at: number; what: string }>;
}

/** The app's own calls (APIs, the session's token): what a page's story lists. */
const APP_CALL = /\/(api|auth|sync|rest)\//;

/** A call as the story names it: method, path, and a sync's command types. */
function callName(request: Request): string {
  const url = new URL(request.url());
  const commands = url.pathname.endsWith('/api/v1/sync') ? new URLSearchParams(request.postData() ?? '').get('commands') : null;
  const types = commands ? ` [${(JSON.parse(commands) as Array<{ type: string }>).map((command) => command.type).join(', ')}]` : '';
  return `${request.method()} ${url.pathname}${types}`;
}

/**
 * Records the page's push messages and its calls to the server (a sync's commands, each answer's
 * status, a failure's reason, and whether the service worker saw it), so a failed step can say
 * what the page heard and asked, and when.
 */
function recordTraffic(page: Page): Array<{ at: number; what: string }> {
  const traffic: Array<{ at: number; what: string }> = [];
  const note = (what: string) => traffic.push({ at: Date.now(), what });
  page.on('websocket', (socket) => {
    note('push socket opened');
    socket.on('framereceived', (frame) => note(`push: ${String(frame.payload).slice(0, 80)}`));
    socket.on('close', () => note('push socket closed'));
  });
  page.on('request', (request) => APP_CALL.test(request.url()) && note(`${callName(request)} sent`));
  page.on('response', (response) => APP_CALL.test(response.url()) && note(`${callName(response.request())} answered ${response.status()}${response.fromServiceWorker() ? ' (by the service worker)' : ''}`));
  page.on('requestfailed', (request) => APP_CALL.test(request.url()) && note(`${callName(request)} failed: ${request.failure()?.errorText ?? '?'}`));
  page.on('load', () => note('page loaded'));
  return traffic;
}

/** What a person's page heard and asked since `mark` (an index into their traffic), a line each, in ms from `from`. */
export function trafficStory(person: AppPerson, mark: number, from: number): string {
  return person.traffic
    .slice(mark)
    .map(({ at, what }) => `${at - from} ms: ${what}`)
    .join('\n');
}

/**
 * Runs a step; failing, it rethrows with what the person's page heard and asked since `mark`
 * (an index into their traffic) and what its notices and alerts said: a CI failure's story.
 */
export async function withStory<T>(person: AppPerson, mark: number, step: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await step();
  } catch (err) {
    const story = trafficStory(person, mark, started);
    const shown = await person.page
      .evaluate<string>(`[...document.querySelectorAll('[role=alert], [role=log], h1')].map((node) => (node.getAttribute('role') ?? node.tagName.toLowerCase()) + ': ' + node.textContent).join('\\n')`)
      .catch(() => '(the page did not answer)');
    throw new Error(`${err instanceof Error ? err.message : String(err)}\nthe page showed:\n${shown}\nthe page's traffic (ms from the step's start):\n${story}`, { cause: err });
  }
}

/** A Chromium the suite shares; each person gets a fresh context in it. */
/**
 * How long a step of the app may take here: bounds for a loaded CI machine (load 20 on two
 * cores, Chromium and two systems sharing them), where a sign-in took over 15 s. How fast the
 * app is, is the bench's (S14).
 */
const STEP_MS = 30_000;

export class PeopleBrowser {
  private browser: Browser | undefined;

  /** `options`: the context's own settings (a person's time zone, `timezoneId`). */
  async person(system: SystemUnderTest, options: BrowserContextOptions = {}): Promise<AppPerson> {
    this.browser ??= await launchChromium();
    const account = await system.createAccount({ password: PASSWORD });
    const context = await contextWithSwitch(this.browser, options);
    const page = await context.newPage();
    const traffic = recordTraffic(page);
    // Open before the sign-in: the push channel opens right after the first sync.
    const pushOpened = page.waitForEvent('websocket', { timeout: STEP_MS });
    // Awaited below; a sign-in failing first must not leave its timeout unhandled.
    pushOpened.catch(() => undefined);
    const person = { account, context, page, traffic };
    await withStory(person, 0, async () => {
      await signInThroughApp(page, system.url, { email: account.email, password: PASSWORD }, 'Sign in');
      await page.getByRole('link', { name: 'Inbox', exact: true }).waitFor({ timeout: STEP_MS });
      await pushOpened;
    });
    return person;
  }

  async close(): Promise<void> {
    await this.browser?.close();
    this.browser = undefined;
  }
}

/** Opens a view by its route, as a link or a typed address would, and waits for its heading. */
export async function openView(page: Page, hash: string, title: string | RegExp): Promise<void> {
  // A string, evaluated in the page: this tier's types have no DOM.
  await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
  await page.getByRole('heading', { level: 1, name: title }).waitFor({ timeout: 10_000 });
}

/** The answer to the page's next Sync API request carrying a command of `type` (the write's answer). */
export function syncAnswerTo(page: Page, type: string): Promise<Response> {
  return page.waitForResponse(
    (response) => {
      if (!response.url().endsWith('/api/v1/sync') || response.request().method() !== 'POST') return false;
      const commands = new URLSearchParams(response.request().postData() ?? '').get('commands');
      return commands !== null && (JSON.parse(commands) as Array<{ type: string }>).some((command) => command.type === type);
    },
    { timeout: STEP_MS },
  );
}

/** The answer to the page's next quick add (POST /api/v1/tasks/quick). */
export function quickAddAnswer(page: Page): Promise<Response> {
  return page.waitForResponse((response) => response.url().endsWith('/api/v1/tasks/quick') && response.request().method() === 'POST', { timeout: STEP_MS });
}

/** A project made through the REST API, for a test that starts from one (the app's own New project control: web-app-tasks); answers its id. */
export async function createProject(system: SystemUnderTest, account: Account, name: string): Promise<string> {
  const created = await http<{ id: string }>(system.url, 'POST', '/api/v1/projects', { token: account.token, json: { name } });
  expect(created.status).toBe(200);
  return created.body.id;
}

/** A project's open tasks, read through the REST API (every page). */
export async function tasksOf(system: SystemUnderTest, account: Account, projectId: string): Promise<Array<{ id: string; content: string }>> {
  const tasks: Array<{ id: string; content: string }> = [];
  let cursor: string | null = null;
  do {
    const query: URLSearchParams = new URLSearchParams({ project_id: projectId, ...(cursor ? { cursor } : {}) });
    const page: { body: { results: Array<{ id: string; content: string }>; next_cursor: string | null }; status: number } = await http<{ results: Array<{ id: string; content: string }>; next_cursor: string | null }>(system.url, 'GET', `/api/v1/tasks?${query.toString()}`, { token: account.token });
    expect(page.status).toBe(200);
    tasks.push(...page.body.results);
    cursor = page.body.next_cursor;
  } while (cursor);
  return tasks;
}

/** Takes a person's browser off the network, or back on (their connection's switch). */
export { setOnline } from './network-switch';
