import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AccountFacts, type Caller, currentSyncGeneration, firstGeneration, type Generation, post, runCommands, syncV6Generation, syncV7Generation, syncV8Generation, toldBy } from './support/generations';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/**
 * One account, every generation of the API: the same projects, nested tasks, sections, labels,
 * comments, reminders, a recurring task and a completed one, read through each version and
 * written through each, so a change made in one shows in all the others.
 */
const WINDOW = `since=${new Date(Date.now() - 86_400_000).toISOString().slice(0, 19)}&until=${new Date(Date.now() + 86_400_000).toISOString().slice(0, 19)}`;
const GENERATIONS: readonly Generation[] = [
  currentSyncGeneration('sync-api-v1', '/api/v1/sync', `/api/v1/tasks/completed/by_completion_date?${WINDOW}`),
  currentSyncGeneration('sync-v9', '/sync/v9/sync', '/sync/v9/completed/get_all'),
  syncV8Generation(),
  syncV7Generation(),
  syncV6Generation(),
  firstGeneration(),
];

/** Writes the account every generation reads, through api/v1. */
async function seed(caller: Caller): Promise<void> {
  let uuid = 0;
  const command = (type: string, args: Record<string, unknown>, temp_id?: string) => ({ type, args, uuid: `seed-${++uuid}`, ...(temp_id ? { temp_id } : {}) });
  await runCommands(caller, '/api/v1/sync', [
    command('project_add', { name: 'Work' }, 'work'),
    command('section_add', { name: 'Doing', project_id: 'work' }, 'doing'),
    command('label_add', { name: 'focus' }, 'focus'),
    command('item_add', { content: 'Parent task', project_id: 'work', section_id: 'doing', due: { string: 'Jan 15 2030 at 9am' } }, 'parent'),
    command('item_add', { content: 'Child task', parent_id: 'parent', labels: ['focus'] }, 'child'),
    command('item_add', { content: 'Water plants', project_id: 'work', due: { string: 'every day' } }, 'plants'),
    command('item_add', { content: 'Buy milk' }, 'milk'),
    command('item_add', { content: 'Done already', project_id: 'work' }, 'done'),
    command('item_close', { id: 'done' }),
    command('note_add', { item_id: 'parent', content: 'Remember the slides' }, 'note'),
    command('reminder_add', { item_id: 'parent', type: 'relative', minute_offset: 30 }, 'reminder'),
  ]);
}

/** The facts every generation must agree on, as api/v1 wrote them. */
const EXPECTED: AccountFacts = {
  projects: ['Inbox', 'Work'],
  tasks: [
    { content: 'Buy milk', project: 'Inbox', parent: null, section: null, labels: [], due: null, recurring: false },
    { content: 'Child task', project: 'Work', parent: 'Parent task', section: 'Doing', labels: ['focus'], due: null, recurring: false },
    { content: 'Parent task', project: 'Work', parent: null, section: 'Doing', labels: [], due: '2030-01-15', recurring: false },
    { content: 'Water plants', project: 'Work', parent: null, section: null, labels: [], due: expect.any(String), recurring: true },
  ],
  notes: ['Parent task: Remember the slides'],
  completed: ['Done already'],
};


describe.each(MODES)('one account, every generation (%s)', (mode) => {
  /** `pristine` is seeded the same way and never written to again: what the golden files render. */
  const { system, accounts: [account, pristine] } = useSystem(mode, { accounts: 2 });
  const caller = (): Caller => ({ system, account });

  beforeAll(async () => {
    await Promise.all([seed(caller()), seed({ system, account: pristine })]);
  });

  it.each(GENERATIONS.map((generation) => [generation.name, generation] as const))('%s shows the same account', async (_name, generation) => {
    expect(toldBy(generation.tells, await generation.facts(caller()))).toEqual(toldBy(generation.tells, EXPECTED));
  });

  it.each(GENERATIONS.map((generation) => [generation.name, generation] as const))('a subtask written through %s is read by every generation', async (name, writer) => {
    const content = `Written through ${name}`;
    await writer.addSubtask(caller(), content, 'Parent task');
    await writer.renameTask(caller(), content, `${content} (renamed)`);
    for (const reader of GENERATIONS) {
      const facts = await reader.facts(caller());
      expect({ reader: reader.name, task: facts.tasks.find((task) => task.content === `${content} (renamed)`) }).toEqual({
        reader: reader.name,
        task: expect.objectContaining({ project: 'Work', parent: 'Parent task' }),
      });
    }
  });

  it.each(GENERATIONS.map((generation) => [generation.name, generation] as const))("%s lets no user rename another user's task by its id", async (name, generation) => {
    const theirs = (await post({ system, account: pristine }, '/api/v1/sync', { sync_token: '*', resource_types: ['items'] })).items as Array<{ id: string; content: string }>;
    const target = theirs.find((item) => item.content === 'Buy milk')!;
    // The same call on the caller's own task is accepted: a refusal below is about whose task it is.
    const mine = ((await post(caller(), '/api/v1/sync', { sync_token: '*', resource_types: ['items'] })).items as Array<{ id: string; content: string }>).find((item) => item.content === 'Buy milk')!;
    expect(await generation.renameById(caller(), mine.id, 'Buy milk')).toBe(true);
    expect(await generation.renameById(caller(), target.id, `Taken through ${name}`)).toBe(false);
    const after = (await post({ system, account: pristine }, '/api/v1/sync', { sync_token: '*', resource_types: ['items'] })).items as Array<{ id: string; content: string }>;
    expect(after.find((item) => item.id === target.id)?.content).toBe('Buy milk');
  });

  if (mode === 'embedded') {
    /**
     * Each generation's whole rendering of the seeded account, ids and instants masked, as golden
     * files: `UPDATE_GOLDEN=1 npm test -- e2e/generations` rewrites them, and review reads the diff.
     */
    it.each(GENERATIONS.map((generation) => [generation.name, generation] as const))('%s renders the account as its golden file says', async (name, generation) => {
      const rendered = await generation.render({ system, account: pristine });
      const dir = join(__dirname, 'golden', 'generations');
      const file = join(dir, `${name}.json`);
      if (process.env['UPDATE_GOLDEN'] === '1') {
        mkdirSync(dir, { recursive: true });
        writeFileSync(file, `${JSON.stringify(rendered, null, 2)}\n`);
      }
      expect(existsSync(file)).toBe(true);
      expect(rendered).toEqual(JSON.parse(readFileSync(file, 'utf8')));
    });
  }
});
