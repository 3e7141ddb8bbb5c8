import { http } from '@doable/shared-testing';
import type { Browser, Route } from 'playwright-core';
import { launchChromium } from './support/browser';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';
import { signInThroughApp } from './support/web-app';
import { PASSWORD, syncAnswerTo } from './support/web-app-people';

/** YYYY-MM-DD, `days` from today in UTC (the browser context below runs in UTC, as the account does). */
const utcDay = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * A first visit's Today before its full sync has answered (apps/web/src/state/first-look.ts):
 * the app asks the filter endpoint for the overdue and today tasks and shows them while the
 * full sync, held back here by the test, has not come. Only the right tasks show; a task
 * completed in that moment is kept and sent once the queue opens; the full sync then takes over.
 */
describe.each(MODES)('web app, first look (%s)', (mode) => {
  const { system } = useSystem(mode, { accounts: 0 });
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the overdue and today tasks before the full sync, keeps a completion made then, and hands over to the full sync', async () => {
    const account = await system.createAccount({ password: PASSWORD });
    const add = async (content: string, fields: Record<string, unknown>) => {
      const created = await http<{ id: string }>(system.url, 'POST', '/api/v1/tasks', { token: account.token, json: { content, ...fields } });
      expect(created.status).toBe(200);
      return created.body.id;
    };
    await add('Pay the overdue bill', { due_date: utcDay(-2) });
    const todayId = await add('Call the dentist', { due_date: utcDay(0) });
    await add('Plan the trip', { due_date: utcDay(1) });
    await add('Someday read Proust', {});
    const doneId = await add('Already done today', { due_date: utcDay(0) });
    expect((await http(system.url, 'POST', `/api/v1/tasks/${doneId}/close`, { token: account.token })).status).toBe(204);

    const context = await browser.newContext({ timezoneId: 'UTC' });
    // Every full sync waits until the test lets it go (and at the latest when it ends).
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    try {
      let heldSyncs = 0;
      await context.route('**/api/v1/sync', async (route: Route) => {
        if (new URLSearchParams(route.request().postData() ?? '').get('sync_token') === '*') {
          heldSyncs++;
          await released;
        }
        await route.continue();
      });
      const page = await context.newPage();
      await signInThroughApp(page, system.url, { email: account.email, password: PASSWORD }, 'Sign in');

      // Signed in, on Today (the app's home), the full sync still held: the first look's rows.
      const rows = page.getByTestId('task');
      await page.getByRole('listitem', { name: 'Call the dentist', exact: true }).waitFor({ timeout: 15_000 });
      await page.getByRole('listitem', { name: 'Pay the overdue bill', exact: true }).waitFor({ timeout: 5_000 });
      expect(heldSyncs).toBe(1);
      expect(await page.getByTestId('connection').innerText()).toBe('Loading…');
      expect((await rows.allInnerTexts()).length).toBe(2);
      expect(await page.getByRole('listitem', { name: 'Plan the trip' }).count()).toBe(0);
      expect(await page.getByRole('listitem', { name: 'Already done today' }).count()).toBe(0);

      // Completed now, before the queue exists: shown at once, sent once the full sync has opened it.
      const completed = syncAnswerTo(page, 'item_complete');
      await page.getByRole('checkbox', { name: 'Complete Call the dentist' }).click();
      await page.getByRole('listitem', { name: 'Call the dentist', exact: true }).waitFor({ state: 'detached', timeout: 5_000 });
      release();
      expect((await completed).ok()).toBe(true);
      const open = await http<{ results: Array<{ id: string }> }>(system.url, 'GET', '/api/v1/tasks', { token: account.token });
      expect(open.body.results.map((task) => task.id)).not.toContain(todayId);

      // The full sync has taken over (the status no longer says Loading), and Today is still right.
      await page.getByTestId('connection').filter({ hasNotText: 'Loading…' }).waitFor({ state: 'attached', timeout: 10_000 });
      expect(await rows.allInnerTexts()).toEqual([expect.stringContaining('Pay the overdue bill')]);
    } finally {
      release();
      await context.close();
    }
  });
});
