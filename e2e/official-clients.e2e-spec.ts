import { runClient } from './support/clients';
import { startedTogether } from './support/started-together';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/** Unmodified real clients against the server: what users of those libraries will see. */
describe.each(MODES)('official and community clients (%s)', (mode) => {
  const { system } = useSystem(mode, { accounts: 0 });
  const PATHS = ['/sync/v9', '/api/v1', '/sync/v8'];

  /** A client's run, with an account of its own; the first test starts every one at once. */
  const run = startedTogether(['sdk', ...PATHS], async (key: string): Promise<{ email: string; report: any }> => {
    const account = await system.createAccount();
    const report =
      key === 'sdk'
        ? await runClient('todoist-sdk-sync.mjs', { DOABLE_URL: system.url, DOABLE_TOKEN: account.token })
        : await runClient('todoist-community.mjs', { DOABLE_SYNC_ENDPOINT: `${system.url}${key}`, DOABLE_TOKEN: account.token });
    return { email: account.email, report };
  });

  it('@doist/todoist-sdk 17: sync() full, with temp ids, incremental, all validated by the SDK', async () => {
    const { email, report } = await run('sdk');
    const account = { email };
    expect(report.full).toEqual({ fullSync: true, user: account.email, projects: ['Inbox'], items: 0, labels: 0, filters: 0 });
    expect(report.write.statuses).toEqual(['ok', 'ok', 'ok']);
    expect(report.write.mapped).toEqual(['sdkproject', 'sdksubtask', 'sdktask']);
    expect(report.write.projects).toEqual(['SDK project']);
    expect(report.write.items).toEqual(['SDK subtask', 'SDK task']);
    expect(report.write.due).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(report.edit.statuses).toEqual(['ok', 'ok']);
    expect(report.edit.items).toEqual([
      { content: 'SDK subtask', isDeleted: true },
      { content: 'SDK task (edited)', isDeleted: false },
    ]);
    expect(report.organise).toEqual({
      statuses: ['ok', 'ok', 'ok'],
      labels: [{ name: 'sdk-label', color: 'berry_red', isFavorite: true, isDeleted: false }],
      filters: [{ name: 'SDK filter', query: '@sdk-label & p1', color: 'blue', isFrozen: false, isDeleted: false }],
      taskLabels: ['sdk-label'],
    });
    expect(report.relabel).toEqual({
      statuses: ['ok', 'ok', 'ok', 'ok'],
      labels: [{ name: 'sdk-renamed', order: 5 }],
      filters: [{ query: '@sdk-renamed', itemOrder: 3 }],
      taskLabels: ['sdk-renamed'],
    });
    expect(report.cleanup).toEqual({
      statuses: ['ok', 'ok'],
      labels: [{ id: true, isDeleted: true }],
      filters: [{ id: true, isDeleted: true }],
      taskLabels: [],
    });
    expect(report.quiet).toEqual({ fullSync: false, items: 0, projects: 0, labels: 0, filters: 0 });
    expect(report.refused).not.toBe('accepted');
  });

  it.each(PATHS)('todoist@1.1.0 against %s: one form-encoded command per request', async (path) => {
    const { report } = await run(path);
    expect(report).toEqual({
      inbox: ['Inbox'],
      added: { project: 'Community project', task: 'Community task', sameProject: true },
      // v8 writes booleans as 0/1 and ids as integers.
      afterClose: [path === '/sync/v8' ? 1 : true],
      labelled: { labels: ['community'], idType: path === '/sync/v8' ? 'number' : 'string' },
      afterDelete: false,
      projects: ['Community project', 'Inbox'],
    });
  });
});
