import { http, waitFor } from '@doable/shared-testing';
import type { Page, Response } from 'playwright-core';
import { type Account, MODES, type SystemUnderTest } from './support/system-view';
import { useSystem } from './support/use-system';
import { openView, PeopleBrowser, syncAnswerTo } from './support/web-app-people';

/** What the server holds for the account, read through the Sync API as any client would. */
async function read(system: SystemUnderTest, account: Account, types: string[]): Promise<Record<string, unknown>> {
  const answer = await http<Record<string, unknown>>(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { sync_token: '*', resource_types: types } });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** Every command in a Sync API answer was taken. */
async function allOk(answer: Promise<Response>): Promise<void> {
  const response = await answer;
  expect(response.ok()).toBe(true);
  const statuses = Object.values(((await response.json()) as { sync_status?: Record<string, unknown> }).sync_status ?? {});
  expect(statuses.length).toBeGreaterThan(0);
  expect(statuses.every((status) => status === 'ok')).toBe(true);
}

/** The answer to the page's next notification setting change (PUT /api/v1/notification_setting). */
const settingAnswer = (page: Page) => page.waitForResponse((response) => response.url().endsWith('/api/v1/notification_setting') && response.request().method() === 'PUT', { timeout: 15_000 });

/**
 * The web app's Settings view and location reminders (issue #35), in both run modes, in
 * Chromium: the profile (name, time zone) saved as a user_update and still there after a
 * reload, the daily digest turned on through the notification settings endpoint, and a task's
 * reminder at a place stored with its coordinates. Each change is checked through the public API.
 */
describe.each(MODES)('web app, settings (%s)', (mode) => {
  const { system } = useSystem(mode, { accounts: 0 });
  const chromium = new PeopleBrowser();

  afterAll(async () => {
    await chromium.close();
  });

  it('changes the full name and the time zone; the server has them, and a reload shows them', async () => {
    const ana = await chromium.person(system);
    const page = ana.page;
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor({ timeout: 10_000 });
    await page.getByLabel('Full name').fill('Ana Settings');
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    const saved = syncAnswerTo(page, 'user_update');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await allOk(saved);

    const user = (await read(system, ana.account, ['user']))['user'] as { full_name: string; tz_info: { timezone: string } };
    expect({ name: user.full_name, zone: user.tz_info.timezone }).toEqual({ name: 'Ana Settings', zone: 'Europe/Berlin' });

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor({ timeout: 15_000 });
    await waitFor(async () => {
      const shown = await Promise.all([page.getByLabel('Full name').inputValue(), page.getByLabel('Time zone').inputValue()]);
      return shown.join() === 'Ana Settings,Europe/Berlin' || undefined;
    }, 'the saved name and zone in the form after a reload', 10_000);
  });

  it('turns the daily digest on; the server’s notification settings say so', async () => {
    const ana = await chromium.person(system);
    const page = ana.page;
    await openView(page, '#/settings', 'Settings');
    const digest = page.getByRole('checkbox', { name: 'Daily digest by email' });
    await digest.waitFor({ timeout: 10_000 });
    expect(await digest.isChecked()).toBe(false);
    const answered = settingAnswer(page);
    await digest.check();
    expect((await answered).status()).toBe(200);
    expect(await digest.isChecked()).toBe(true);
    const settings = (await read(system, ana.account, ['notification_settings']))['settings_notifications'] as Record<string, { notify_email: boolean; notify_push: boolean }>;
    expect(settings['daily_digest']).toEqual({ notify_email: true, notify_push: false });
    // Each collaboration kind shows both channels, named for a screen reader.
    expect(await page.getByRole('checkbox', { name: 'A comment is added: push' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'A comment is added: email' }).isChecked()).toBe(false);
  });

  it('adds a reminder at a place to a task; the server stores a location reminder with those coordinates', async () => {
    const ana = await chromium.person(system);
    const created = await http<{ id: string }>(system.url, 'POST', '/api/v1/tasks', { token: ana.account.token, json: { content: 'Buy bread' } });
    expect(created.status).toBe(200);
    const page = ana.page;
    await openView(page, '#/inbox', 'Inbox');
    await page.getByRole('button', { name: 'Reminders for Buy bread' }).click({ timeout: 10_000 });
    const panel = page.getByRole('region', { name: 'Reminders of Buy bread' });
    await panel.getByRole('radio', { name: 'At a place' }).check();
    await panel.getByLabel('Name', { exact: true }).fill('Bakery');
    await panel.getByLabel('Latitude').fill('48.8566');
    await panel.getByLabel('Longitude').fill('-2.3522');
    await panel.getByLabel('Radius (m)').fill('150');
    await panel.getByRole('radio', { name: 'When I leave' }).check();
    const added = syncAnswerTo(page, 'reminder_add');
    await panel.getByRole('button', { name: 'Add reminder' }).click();
    await allOk(added);
    await panel.getByTestId('reminder').filter({ hasText: 'When I leave Bakery' }).waitFor({ timeout: 5_000 });

    const reminders = (await read(system, ana.account, ['reminders_location']))['reminders_location'] as Array<Record<string, unknown>>;
    expect(reminders.filter((reminder) => reminder['item_id'] === created.body.id)).toEqual([
      expect.objectContaining({ type: 'location', name: 'Bakery', loc_lat: '48.8566', loc_long: '-2.3522', radius: 150, loc_trigger: 'on_leave' }),
    ]);
  });
});
