import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AccountFacts, type Caller, currentSyncGeneration, firstGeneration, type Generation, post, runCommands, syncV6Generation, syncV7Generation, syncV8Generation, toldBy } from './support/generations';
import { http } from '@doable/shared-testing';
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
  const { system, accounts: [account, pristine] } = useSystem(mode, {
    accounts: 2,
    // The operator's dates for v7 (the others keep the default): docs/operations/configuration.md.
    env: { DEPRECATION_DATE_SYNC_V7: '2019-01-15', SUNSET_DATE_SYNC_V7: '2030-06-30T12:00:00Z', DEPRECATION_DOCS_URL: 'https://doable.example/deprecations' },
  });
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

  /** Every old generation's path answers marked deprecated in favour of api/v1 (RFC 9745, RFC 8594). */
  it('marks the old generations deprecated with Deprecation, Sunset and Link, and the current ones not', async () => {
    const token = account.token;
    const form = { token, sync_token: '*', resource_types: '["projects"]' };
    const calls = {
      'sync-api-v1': () => http(system.url, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['projects'] } }),
      'rest-v2': () => http(system.url, 'GET', '/rest/v2/projects', { token }),
      'rest-api-v1': () => http(system.url, 'GET', '/api/v1/projects', { token }),
      'sync-v9': () => http(system.url, 'POST', '/sync/v9/sync', { token, json: { sync_token: '*', resource_types: ['projects'] } }),
      'sync-v8': () => http(system.url, 'POST', '/sync/v8/sync', { form }),
      'sync-v7 /API': () => http(system.url, 'POST', '/API/v7/sync', { form }),
      'sync-v7 /api': () => http(system.url, 'POST', '/api/v7/sync', { form }),
      'sync-v6': () => http(system.url, 'POST', '/API/v6/sync', { form: { token, seq_no: '0', resource_types: '["projects"]' } }),
      'first-generation /API': () => http(system.url, 'GET', `/API/getProjects?token=${token}`),
      'first-generation /TodoistSync': () => http(system.url, 'POST', '/TodoistSync/v5.3/get', { form: { api_token: token } }),
      // A refusal on an old path is marked too: the mark is about the path, not the answer.
      'sync-v8 without a token': () => http(system.url, 'POST', '/sync/v8/sync', { form: { sync_token: '*' } }),
    };
    const seen: Record<string, unknown> = {};
    for (const [name, call] of Object.entries(calls)) {
      const response = await call();
      seen[name] = { ok: response.status < 400, deprecation: response.headers.get('deprecation'), sunset: response.headers.get('sunset'), link: response.headers.get('link') };
    }
    const byDefault = { ok: true, deprecation: '@1735689600', sunset: null, link: '</api/v1/sync>; rel="successor-version", <https://doable.example/deprecations>; rel="deprecation"; type="text/html"' };
    const v7 = { ...byDefault, deprecation: '@1547510400', sunset: 'Sun, 30 Jun 2030 12:00:00 GMT' };
    const current = { ok: true, deprecation: null, sunset: null, link: null };
    expect(seen).toEqual({
      'sync-api-v1': current,
      'rest-v2': current,
      'rest-api-v1': current,
      'sync-v9': byDefault,
      'sync-v8': byDefault,
      'sync-v7 /API': v7,
      'sync-v7 /api': v7,
      'sync-v6': byDefault,
      'first-generation /API': byDefault,
      'first-generation /TodoistSync': byDefault,
      'sync-v8 without a token': { ...byDefault, ok: false },
    });
    // A browser client may read them.
    const exposed = (await http(system.url, 'POST', '/API/v7/sync', { form })).headers.get('access-control-expose-headers');
    expect(exposed?.split(', ')).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']));
  });

  it('counts requests per generation in the metrics, so an operator sees who still calls the old ones', async () => {
    const count = async (generation: string, deprecated: boolean): Promise<number> => {
      const metrics = (await http<string>(system.url, 'GET', '/metrics')).body;
      const line = metrics.split('\n').find((row) => row.startsWith(`doable_http_requests_by_generation_total{generation="${generation}",deprecated="${deprecated}",status_class="2xx"`));
      return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
    };
    const [v7, v1] = [await count('sync-v7', true), await count('sync-api-v1', false)];
    await http(system.url, 'POST', '/API/v7/sync', { form: { token: account.token, sync_token: '*', resource_types: '["projects"]' } });
    await http(system.url, 'POST', '/API/v7/sync', { form: { token: account.token, sync_token: '*', resource_types: '["labels"]' } });
    await http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { sync_token: '*', resource_types: ['labels'] } });
    expect(await count('sync-v7', true)).toBe(v7 + 2);
    expect(await count('sync-api-v1', false)).toBe(v1 + 1);
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
