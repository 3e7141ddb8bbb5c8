import { http, waitFor } from '@doable/shared-testing';
import type { Locator, Page, Response } from 'playwright-core';
import { command, shareWith } from './support/sharing';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';
import { seriousAxeViolations } from './support/web-app';
import { type AppPerson, createProject, openView, PeopleBrowser, quickAddAnswer, setOnline, syncAnswerTo, tasksOf, trafficStory } from './support/web-app-people';

/**
 * How long a change may take to reach the other screen here. Issue #35's bar is a second, and
 * the bench measures it (S12, push p99); a test on a loaded machine asserts the mechanism
 * instead of the clock: the change arrives without a reload (the app has no timer poll, so only
 * a push cue and the sync after it can bring it).
 */
const LIVE_WAIT_MS = 15_000;

/**
 * Waits for `write`'s answer, then for `appears` on the reader's screen. The app has no timer
 * poll: a screen changes without a reload only by a push cue and the sync it asks for (which may
 * be the sync of an earlier write's cue, when it already carries this one). Failing, it tells
 * what the reader's page heard and asked since `mark` (ms from the answer).
 */
async function seenLive(mark: number, write: Promise<Response>, reader: AppPerson, appears: Locator, state: 'visible' | 'detached' = 'visible'): Promise<void> {
  const answer = await write;
  const answeredAt = Date.now();
  expect(answer.ok()).toBe(true);
  try {
    await appears.waitFor({ state, timeout: LIVE_WAIT_MS });
  } catch (err) {
    const story = trafficStory(reader, mark, answeredAt);
    throw new Error(`not on the reader's screen within ${LIVE_WAIT_MS} ms of the write's answer; the reader's page:\n${story}`, { cause: err });
  }
  // Nothing but the push channel had the page sync: it was opened, and never reloaded.
  expect(reader.traffic.some(({ what }) => what.includes('"sync_needed"'))).toBe(true);
}

const task = (page: Page, content: string) => page.getByRole('listitem', { name: content, exact: true });

/**
 * The web app as people use it (issue #35's "Done when"), in both run modes, the built app
 * served by the gateway at /app, in Chromium: two people share a project through the app and see
 * each other's tasks, completions and comments live; a task added offline is sent once when the
 * connection returns; every view passes axe-core in light, dark and at a phone's width; and
 * quick add, adding and completing work with the keyboard only. Each test makes its own accounts.
 */
describe.each(MODES)('web app, people (%s)', (mode) => {
  const { system } = useSystem(mode, { accounts: 0 });
  const chromium = new PeopleBrowser();

  afterAll(async () => {
    await chromium.close();
  });

  it('shares a project through the app, and each person sees the other’s task, completion and comment live, by push, without a reload', async () => {
    const ana = await chromium.person(system);
    const ben = await chromium.person(system);
    const projectId = await createProject(system, ana.account, 'Garden');

    // Ana invites Ben from the project's sharing panel; Ben accepts from his notifications.
    await openView(ana.page, `#/project/${projectId}`, 'Garden');
    await ana.page.getByText('Sharing').click();
    await ana.page.getByLabel('Invite by e-mail').fill(ben.account.email);
    const invited = syncAnswerTo(ana.page, 'share_project');
    await ana.page.getByRole('button', { name: 'Invite' }).click();
    expect((await invited).ok()).toBe(true);
    await openView(ben.page, '#/notifications', 'Notifications');
    const accepted = syncAnswerTo(ben.page, 'accept_invitation');
    await ben.page.getByRole('button', { name: 'Accept invitation' }).click({ timeout: 10_000 });
    expect((await accepted).ok()).toBe(true);
    await ben.page.getByRole('link', { name: 'Garden', exact: true }).click({ timeout: 5_000 });
    await ben.page.getByRole('heading', { level: 1, name: 'Garden' }).waitFor();

    for (const [writer, reader, content] of [
      [ana, ben, 'Plant the tulips'],
      [ben, ana, 'Water the roses'],
    ] as Array<[AppPerson, AppPerson, string]>) {
      // A new task.
      await writer.page.getByLabel('Add task').fill(content);
      let mark = reader.traffic.length;
      const added = quickAddAnswer(writer.page);
      await writer.page.getByLabel('Add task').press('Enter');
      await seenLive(mark, added, reader, task(reader.page, content));
      await task(writer.page, content).waitFor();

      // A comment: the reader has the task's comments open, the writer comments.
      await reader.page.getByRole('button', { name: `Comments on ${content}` }).click();
      await writer.page.getByRole('button', { name: `Comments on ${content}` }).click();
      const comment = `${content}: done by Friday`;
      await writer.page.getByLabel('Add comment').fill(comment);
      mark = reader.traffic.length;
      const commented = syncAnswerTo(writer.page, 'note_add');
      await writer.page.getByRole('button', { name: 'Comment', exact: true }).click();
      await seenLive(mark, commented, reader, reader.page.getByTestId('comment').filter({ hasText: comment }));

      // The completion: the task leaves the reader's project view.
      mark = reader.traffic.length;
      const completed = syncAnswerTo(writer.page, 'item_complete');
      // click, not check: the row leaves the view once completed, so there is no checked box to verify.
      await writer.page.getByRole('checkbox', { name: `Complete ${content}` }).click();
      await seenLive(mark, completed, reader, task(reader.page, content), 'detached');
    }
  });

  it('keeps a task added offline and sends it once when the connection returns; the other person sees it', async () => {
    const ana = await chromium.person(system);
    const ben = await chromium.person(system);
    const projectId = await createProject(system, ana.account, 'Errands');
    await shareWith(system, ana.account, ben.account, projectId);
    await openView(ana.page, `#/project/${projectId}`, 'Errands');
    await openView(ben.page, `#/project/${projectId}`, 'Errands');

    await setOnline(ana.context, false);
    await ana.page.getByTestId('connection').filter({ hasText: 'Offline' }).waitFor({ timeout: 5_000 });
    await ana.page.getByLabel('Add task').fill('Buy stamps');
    await ana.page.getByLabel('Add task').press('Enter');
    // Shown at once from the queue, marked as not yet saved; nothing reached the server.
    await task(ana.page, 'Buy stamps').getByText('saving…').waitFor({ timeout: 5_000 });
    await ana.page.getByTestId('connection').filter({ hasText: '1 change waiting' }).waitFor({ timeout: 5_000 });
    expect((await tasksOf(system, ana.account, projectId)).map((item) => item.content)).toEqual([]);

    // The add box is a quick add (issue #47): the queue posts the line to the server's parser.
    const sent = quickAddAnswer(ana.page);
    await setOnline(ana.context, true);
    expect((await sent).ok()).toBe(true);
    await task(ben.page, 'Buy stamps').waitFor({ timeout: 5_000 });
    await task(ana.page, 'Buy stamps').getByText('saving…').waitFor({ state: 'detached', timeout: 5_000 });
    // Stored once, in the project it was added in, for both people.
    for (const account of [ana.account, ben.account]) {
      expect((await tasksOf(system, account, projectId)).map((item) => item.content)).toEqual(['Buy stamps']);
    }
    await ana.page.reload();
    await task(ana.page, 'Buy stamps').waitFor({ timeout: 10_000 });
    expect((await tasksOf(system, ana.account, projectId)).length).toBe(1);
  });

  it('opens every view by its route with no serious axe-core violation, light and dark, and at a phone’s width', async () => {
    const ana = await chromium.person(system);
    const projectId = await createProject(system, ana.account, 'Home');
    expect((await http(system.url, 'POST', '/api/v1/labels', { token: ana.account.token, json: { name: 'calls' } })).status).toBe(200);
    expect(await command(system, ana.account, 'filter_add', { name: 'Urgent', query: 'p1' })).toBe('ok');
    for (const line of ['Call the plumber today p1 @calls', 'Fix the tap tomorrow #Home', 'Read a book']) {
      expect((await http(system.url, 'POST', '/api/v1/tasks/quick', { token: ana.account.token, json: { text: line } })).status).toBe(200);
    }
    const done = await http<{ id: string }>(system.url, 'POST', '/api/v1/tasks/quick', { token: ana.account.token, json: { text: 'Pay the rent' } });
    expect((await http(system.url, 'POST', `/api/v1/tasks/${done.body.id}/close`, { token: ana.account.token })).status).toBe(204);
    // A workspace with a project of its own, for the workspace page.
    const made = await http(system.url, 'POST', '/api/v1/sync', {
      token: ana.account.token,
      json: {
        commands: [
          { type: 'workspace_add', uuid: `ws-${ana.account.userId}`, temp_id: 'ws', args: { name: 'Studio' } },
          { type: 'project_add', uuid: `wsp-${ana.account.userId}`, temp_id: 'wsp', args: { name: 'Studio plans', workspace_id: 'ws' } },
        ],
      },
    });
    expect(made.body.sync_status).toEqual({ [`ws-${ana.account.userId}`]: 'ok', [`wsp-${ana.account.userId}`]: 'ok' });
    const workspaceId = made.body.temp_id_mapping['ws'] as string;
    const page = ana.page;
    await page.getByRole('link', { name: 'Urgent', exact: true }).waitFor({ timeout: 5_000 });
    const filterId = await page.getByRole('link', { name: 'Urgent', exact: true }).evaluate((link) => (link as unknown as { hash: string }).hash.replace('#/filter/', ''));

    const views: Array<{ hash: string; title: string; shows: string }> = [
      { hash: '#/inbox', title: 'Inbox', shows: 'Read a book' },
      { hash: '#/today', title: 'Today', shows: 'Call the plumber' },
      { hash: '#/upcoming', title: 'Upcoming', shows: 'Fix the tap' },
      { hash: `#/project/${projectId}`, title: 'Home', shows: 'Fix the tap' },
      { hash: '#/label/calls', title: '@calls', shows: 'Call the plumber' },
      { hash: `#/filter/${filterId}`, title: 'Urgent', shows: 'Call the plumber' },
      { hash: '#/search/book', title: 'Search: book', shows: 'Read a book' },
      { hash: '#/completed', title: 'Completed', shows: 'Pay the rent' },
      { hash: '#/archived', title: 'Archived projects', shows: 'No archived project.' },
      { hash: '#/notifications', title: 'Notifications', shows: 'Mark all read' },
      { hash: '#/settings', title: 'Settings', shows: 'Daily digest by email' },
      { hash: `#/workspace/${workspaceId}`, title: 'Studio', shows: 'Studio plans' },
    ];
    const check = async (view: (typeof views)[number], where: string) => {
      await openView(page, view.hash, view.title);
      await page.getByRole('main').getByText(view.shows).first().waitFor({ timeout: 10_000 });
      expect({ where, violations: await seriousAxeViolations(page) }).toEqual({ where, violations: [] });
    };
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width: 1280, height: 800 });
      for (const view of views) await check(view, `${view.hash} ${colorScheme}`);
      // The project with its sharing panel, a task's editor (with Repeat), its comments and reminders, and the New project form open.
      await check(views[3], `#/project ${colorScheme}, panels closed`);
      await page.getByText('Sharing', { exact: true }).click();
      await page.getByRole('button', { name: 'Edit Fix the tap' }).click();
      await page.getByRole('button', { name: 'Comments on Fix the tap' }).click();
      await page.getByRole('button', { name: 'Reminders for Fix the tap' }).click();
      // The navigation is not drawn again between views: the form may still be open from the light pass.
      if ((await page.getByLabel('Project name').count()) === 0) await page.getByRole('button', { name: 'New project' }).click();
      await page.getByLabel('Invite by e-mail').waitFor();
      await page.getByLabel('Task name').waitFor();
      await page.getByLabel('Repeat').waitFor();
      await page.getByLabel('Add comment').waitFor();
      await page.getByRole('button', { name: 'Add reminder' }).waitFor();
      await page.getByLabel('Project name').waitFor();
      expect({ where: `#/project ${colorScheme}, panels open`, violations: await seriousAxeViolations(page) }).toEqual({ where: `#/project ${colorScheme}, panels open`, violations: [] });
      await page.setViewportSize({ width: 390, height: 844 });
      for (const view of views.filter(({ title }) => ['Today', 'Home', 'Inbox'].includes(title))) await check(view, `${view.hash} ${colorScheme} 390x844`);
      // At a phone's width nothing scrolls sideways.
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    }
  });

  it('opens the add box with the quick-add key, and adds and completes a task with the keyboard only', async () => {
    const ana = await chromium.person(system);
    const page = ana.page;
    await openView(page, '#/inbox', 'Inbox');
    await page.keyboard.press('q');
    expect(await page.evaluate('document.activeElement?.id')).toBe('add-task');
    const added = quickAddAnswer(page);
    await page.keyboard.type('Book the dentist');
    await page.keyboard.press('Enter');
    expect((await added).ok()).toBe(true);
    await task(page, 'Book the dentist').waitFor({ timeout: 5_000 });

    // Tab from the add box to the task's checkbox, then Space.
    const focusedName = () => page.evaluate<string>("document.activeElement?.getAttribute('aria-label') ?? ''");
    for (let presses = 0; presses < 10 && (await focusedName()) !== 'Complete Book the dentist'; presses++) await page.keyboard.press('Tab');
    expect(await focusedName()).toBe('Complete Book the dentist');
    const completed = syncAnswerTo(page, 'item_complete');
    await page.keyboard.press('Space');
    expect((await completed).ok()).toBe(true);
    await task(page, 'Book the dentist').waitFor({ state: 'detached', timeout: 5_000 });
    const inbox = await waitFor(async () => {
      const body = (await http(system.url, 'POST', '/api/v1/sync', { token: ana.account.token, json: { sync_token: '*', resource_types: ['projects'] } })).body;
      return (body.projects as Array<{ id: string; inbox_project?: boolean }>).find((project) => project.inbox_project)?.id;
    }, 'the inbox');
    expect(await tasksOf(system, ana.account, inbox)).toEqual([]);
  });
});
