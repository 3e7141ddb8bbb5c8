import { unzipSync, zipSync } from 'fflate';
import type { AccountSnapshot, SnapshotTask } from './account-snapshot';
import { snapshotOfImportFile } from './import-file';
import { projectCsvsOf, snapshotOfBackupCsvs } from './snapshot-csv';

const task = (key: string, content: string, extra: Partial<SnapshotTask> = {}): SnapshotTask => ({
  key,
  projectKey: 'work',
  sectionKey: null,
  parentKey: null,
  content,
  description: '',
  priority: 1,
  childOrder: 1,
  labels: [],
  due: null,
  deadline: null,
  duration: null,
  isCollapsed: false,
  checked: false,
  completedAt: null,
  ...extra,
});

const snapshot: AccountSnapshot = {
  projects: [
    { key: 'inbox', name: 'Inbox', isInbox: true, parentKey: null, color: null, childOrder: 0, viewStyle: 'list', isFavorite: false, isArchived: false, description: null },
    { key: 'work', name: 'Work: Q1/Q2', isInbox: false, parentKey: null, color: 'red', childOrder: 1, viewStyle: 'board', isFavorite: true, isArchived: false, description: null },
  ],
  sections: [{ key: 's1', projectKey: 'work', name: 'Doing', order: 1, isArchived: false }],
  tasks: [
    task('t1', 'Weekly report', { sectionKey: 's1', priority: 4, labels: ['deep'], due: { date: '2026-11-30', string: 'every monday', timezone: null, lang: 'en' } }),
    task('t2', 'Numbers', { sectionKey: 's1', parentKey: 't1', due: { date: '2026-12-01', string: 'Dec 1', timezone: null, lang: 'en' } }),
    task('t3', 'Done already', { checked: true }),
    task('t4', 'Milk', { projectKey: 'inbox', duration: { amount: 15, unit: 'minute' }, deadline: { date: '2026-12-24', lang: 'en' } }),
  ],
  notes: [
    { key: 'n1', taskKey: 't1', projectKey: null, content: 'See the drive', fileAttachment: null },
    { key: 'n2', taskKey: null, projectKey: 'work', content: 'Team rules', fileAttachment: null },
  ],
  labels: [],
  filters: [],
  reminders: [],
};

describe('a backup\'s project CSVs', () => {
  it('names each file by project and id, without characters file systems refuse', () => {
    expect(projectCsvsOf(snapshot).map((entry) => entry.name)).toEqual(['Inbox [inbox].csv', 'Work_ Q1_Q2 [work].csv']);
  });

  it('read back, give the same projects, sections, open tasks, subtasks, labels, dates and notes (a recurring date as its words)', async () => {
    const read = await snapshotOfBackupCsvs(projectCsvsOf(snapshot).map((entry) => ({ name: entry.name, text: entry.content })));
    expect(read.projects.map((p) => ({ name: p.name, isInbox: p.isInbox, viewStyle: p.viewStyle }))).toEqual([
      { name: 'Inbox', isInbox: true, viewStyle: 'list' },
      { name: 'Work_ Q1_Q2', isInbox: false, viewStyle: 'board' },
    ]);
    expect(read.sections.map((s) => s.name)).toEqual(['Doing']);
    const byContent = Object.fromEntries(read.tasks.map((t) => [t.content, t]));
    expect(Object.keys(byContent).sort()).toEqual(['Milk', 'Numbers', 'Weekly report']);
    expect(byContent['Weekly report']).toMatchObject({ priority: 4, labels: ['deep'], due: { date: null, string: 'every monday', lang: 'en' } });
    expect(byContent['Numbers']).toMatchObject({ parentKey: byContent['Weekly report'].key, sectionKey: byContent['Weekly report'].sectionKey, due: { date: '2026-12-01', string: null } });
    expect(byContent['Milk']).toMatchObject({ duration: { amount: 15, unit: 'minute' }, deadline: { date: '2026-12-24', lang: 'en' } });
    expect(read.notes.map((n) => [n.content, n.taskKey === null ? 'project' : 'task'])).toEqual([
      ['Team rules', 'project'],
      ['See the drive', 'task'],
    ]);
  });
});

describe('snapshotOfImportFile', () => {
  const csv = 'TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE\nsection,Errands,,,,,,,,\ntask,Buy milk @shop,,1,1,Ada (7),,tomorrow,en,\ntask,Whole milk,,4,2,Ada (7),,,,\n';

  it('reads a Todoist backup ZIP (project CSVs only) through the CSV reader', async () => {
    const zip = zipSync({ 'Home [2203306141].csv': new TextEncoder().encode(csv), '__MACOSX/._Home.csv': new Uint8Array([0]) });
    const read = await snapshotOfImportFile(zip);
    expect(read.projects.map((p) => p.name)).toEqual(['Home']);
    expect(read.tasks.map((t) => [t.content, t.priority, t.labels, t.parentKey === null])).toEqual([
      ['Buy milk', 4, ['shop'], true],
      ['Whole milk', 1, [], false],
    ]);
  });

  it('prefers the account JSON of a Doable backup over its CSVs', async () => {
    const account = { projects: [{ id: '1', name: 'Exact' }], items: [{ id: '2', project_id: '1', content: 'From JSON' }] };
    const zip = zipSync({ 'Exact [1].csv': new TextEncoder().encode(csv), 'doable-account.json': new TextEncoder().encode(JSON.stringify(account)) });
    expect((await snapshotOfImportFile(zip)).tasks.map((t) => t.content)).toEqual(['From JSON']);
    expect(Object.keys(unzipSync(zip))).toHaveLength(2);
  });

  it.each([
    ['text that is neither JSON nor a ZIP', new TextEncoder().encode('hello')],
    ['a ZIP without CSVs', zipSync({ 'readme.txt': new TextEncoder().encode('hi') })],
    ['a damaged ZIP', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])],
  ])('refuses %s with INVALID_ARGUMENT_VALUE on file', async (_name, bytes) => {
    await expect(snapshotOfImportFile(bytes)).rejects.toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT_VALUE', extra: expect.objectContaining({ argument: 'file' }) }));
  });
});
