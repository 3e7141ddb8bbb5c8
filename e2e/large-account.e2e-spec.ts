import { ISSUE_SIZE, seedLargeAccount } from '@doable/sync-domain/testing';
import { runClient } from './support/clients';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/** The sync engine issue's acceptance run: a large account, fully synced and validated by the official SDK. */
describe.each(MODES)('a large account (%s)', (mode) => {
  const { system } = useSystem(mode, { accounts: 0 });

  it('full-syncs 5,000 tasks in 100 projects with sections, notes and labels through @doist/todoist-sdk without a validation error', async () => {
    const account = await system.createAccount();
    await seedLargeAccount(system.databaseUrl, account.userId, ISSUE_SIZE);
    const report = await runClient('todoist-sdk-full-sync.mjs', { DOABLE_URL: system.url, DOABLE_TOKEN: account.token });
    expect(report.fullSync).toBe(true);
    expect(report.counts.items).toBe(ISSUE_SIZE.tasks);
    expect(report.counts.projects).toBe(ISSUE_SIZE.projects + 1); // and the Inbox
    expect(report.counts.sections).toBe(ISSUE_SIZE.projects * ISSUE_SIZE.sectionsPerProject);
    expect(report.counts.notes).toBe(ISSUE_SIZE.notes);
    expect(report.counts.labels).toBe(ISSUE_SIZE.labels);
  });
});
