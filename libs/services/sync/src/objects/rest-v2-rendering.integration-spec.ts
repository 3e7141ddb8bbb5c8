import type { ObjectsRender, RenderedQuery } from '@doable/contracts-sync';
import { renderingOf, restV2Task, restV2TaskListSql, type TaskSelection, taskListBody } from '@doable/sync-dialects';
import { WorkspaceHarness } from '@doable/sync-engine/testing';
import fc from 'fast-check';
import { CompletionStatsRepository, NoteRepository, ProductivityStatsService } from '@doable/sync-domain';
import { TaskFilterService } from '@doable/sync-read';
import type { PushTokens } from '../push/push-tokens.service';
import { DialectReads } from './dialect-reads';
import { ObjectQueryService } from './object-query.service';
import { ObjectReadsRepository, taskListSql } from './object-reads.repository';
import type { TaskListQuery } from './query-result';
import { TaskFilterQuery } from './task-filter.query';
import { WorkspaceObjectQueries } from './workspace-object-queries';
import { WorkspaceReadsRepository } from './workspace-reads.repository';

/** How many of restV2TaskListSql's tasks PostgreSQL could not write (NULL: the list is then JavaScript's). */
const notWritten = (rows: ReadonlyArray<{ task: string | null }>) => rows.filter((row) => row.task === null).length;

const ADA = '7601';
const BEN = '7602';
const render: ObjectsRender = { dialect: 'rest-v2', public_url: 'https://doable.example' };
/** The clock the filters are compiled against, so `today` is a known day. */
const NOW = new Date('2026-11-28T12:00:00Z');

/** Every stored due shape restV2Due has a case for, and a zone PostgreSQL does not know. */
const DUES = {
  day: { date: '2026-11-28', timezone: null, string: 'Nov 28', lang: 'en', is_recurring: false },
  dayInZone: { date: '2026-11-27', timezone: 'Europe/Berlin', string: 'yesterday', lang: 'de', is_recurring: false },
  fixed: { date: '2026-11-28T23:30:00Z', timezone: 'Asia/Tokyo', string: 'every day at 8:30', lang: 'en', is_recurring: true },
  fixedBehind: { date: '2026-11-28T02:00:00Z', timezone: 'America/Los_Angeles', string: 'at 18:00', lang: 'fr', is_recurring: false },
  floating: { date: '2026-11-28T09:15:00', timezone: null, string: 'at 9:15', lang: 'en', is_recurring: false },
  emptyZone: { date: '2026-11-27T09:00:00Z', timezone: '', string: 'at 9', lang: 'en', is_recurring: false },
  noLang: { date: '2026-11-26', timezone: null, string: 'Nov 26', is_recurring: false },
  farYear: { date: '0999-01-02T03:04:05Z', timezone: 'UTC', string: 'long ago', lang: 'en', is_recurring: false },
};
const PLAIN_CONTENT = 'quotes " and \\ and\nnew line, \u0007 bell, emoji \u{1F600}, ünïcode';
const UNKNOWN_ZONE = { date: '2026-11-28T10:00:00Z', timezone: 'Not/A_Zone', string: 'at 10', lang: 'en', is_recurring: false };

/**
 * The REST v2 dialect (libs/sync/dialects/src/rest-v2) over the sync service's reads: its task
 * lists written by PostgreSQL held to its JavaScript writer, key for key, on the real database.
 */
describe('REST v2 task lists written by PostgreSQL (real PostgreSQL)', () => {
  const harness = new WorkspaceHarness();
  let queries: ObjectQueryService;
  let filters: TaskFilterService;
  let dialectReads: DialectReads;
  let projectId: string;
  const ids: Record<string, string> = {};

  const manager = () => harness.dataSource.manager;
  /** The list as the JavaScript writer makes it from api/v1 rows (what rest would make). */
  const textInJs = async (query: TaskListQuery): Promise<string> => JSON.stringify((await queries.taskList(manager(), ADA, query, {})).objects.map((task) => restV2Task(task, render.public_url)));
  const writtenInJs = async (query: TaskListQuery): Promise<unknown[]> => JSON.parse(await textInJs(query)) as unknown[];
  /** The answer the dialect renders for `query` (what rest passes on). */
  const rendered = async (userId: string, query: RenderedQuery): Promise<{ body: string; hasMore: boolean }> => {
    const rendering = renderingOf({ principal: { userId, scopes: ['data:read'], appId: null, tokenKind: 'personal' }, commands: [], query, render });
    if (!rendering) throw new Error('expected a rendering');
    const { body, hasMore } = await rendering.render(dialectReads.source(manager(), userId, {}));
    return { body: body.toString(), hasMore };
  };
  /** The list's text as PostgreSQL writes it (every task written: none left to JavaScript). */
  const textBySql = async (selection: TaskSelection | undefined): Promise<string> => {
    if (!selection) throw new Error('expected one SELECT');
    const { sql, params } = restV2TaskListSql(selection, render.public_url);
    const body = taskListBody(await manager().query<Array<{ task: string | null }>>(sql, params));
    expect(body).toBeDefined();
    return body!.toString();
  };
  const writtenBySql = async (selection: TaskSelection | undefined): Promise<unknown[]> => JSON.parse(await textBySql(selection)) as unknown[];
  const tasksSelection = (query: Omit<Extract<TaskListQuery, { resource: 'tasks' }>, 'resource'>): TaskSelection => {
    const sql = taskListSql(ADA, { ids: query.ids, projectId: query.project_id, sectionId: query.section_id, parentId: query.parent_id, label: query.label });
    return { where: sql.conditionText(), params: sql.params };
  };
  const setDue = (id: string, due: object | null) => harness.dataSource.query(`UPDATE sync.items SET due = $2 WHERE id = $1`, [id, due === null ? null : JSON.stringify(due)]);

  beforeAll(async () => {
    await harness.start('task_list_renderer', { [ADA]: 'ada@tlr.test', [BEN]: 'ben@tlr.test' }, undefined);
    const r = harness.repositories;
    const workspaceReads = new WorkspaceReadsRepository();
    filters = new TaskFilterService(r.profiles);
    queries = new ObjectQueryService(
      new ObjectReadsRepository(),
      r.profiles,
      new TaskFilterQuery(filters),
      new ProductivityStatsService(new CompletionStatsRepository(), r.profiles),
      new NoteRepository(),
      new WorkspaceObjectQueries(workspaceReads, r.workspaces, r.workspaceMembers),
      workspaceReads,
      {} as PushTokens, // the user object is not read here
      r.members,
    );
    dialectReads = new DialectReads(queries, filters);

    await harness.dataSource.query(`UPDATE sync.users SET timezone = 'Pacific/Auckland' WHERE id = $1`, [ADA]);
    projectId = await harness.create(ADA, 'project_add', { name: 'Rendered' });
    const sectionId = await harness.create(ADA, 'section_add', { project_id: projectId, name: 'S' });
    ids['plain'] = await harness.create(ADA, 'item_add', { project_id: projectId, content: PLAIN_CONTENT, description: 'd', labels: ['a"b', 'Ünï'], priority: 4 });
    for (const name of Object.keys(DUES)) ids[name] = await harness.create(ADA, 'item_add', { project_id: projectId, content: name });
    ids['sectioned'] = await harness.create(ADA, 'item_add', { section_id: sectionId, content: 'in a section', deadline: { date: '2026-12-01' }, duration: { amount: 30, unit: 'minute' } });
    ids['child'] = await harness.create(ADA, 'item_add', { parent_id: ids['plain'], content: 'child', labels: ['a"b'] });
    ids['closed'] = await harness.create(ADA, 'item_add', { project_id: projectId, content: 'closed' });
    ids['deleted'] = await harness.create(ADA, 'item_add', { project_id: projectId, content: 'deleted' });
    expect(await harness.status(ADA, 'item_close', { id: ids['closed'] })).toBe('ok');
    expect(await harness.status(ADA, 'item_delete', { id: ids['deleted'] })).toBe('ok');
    for (const [name, due] of Object.entries(DUES)) await setDue(ids[name], due);
    // Two comments on one task, one deleted; one on the project itself.
    for (const [itemId, deleted] of [[ids['plain'], false], [ids['plain'], false], [ids['plain'], true], [null, false]] as const) {
      await harness.dataSource.query(`INSERT INTO sync.notes (project_id, item_id, posted_uid, content, is_deleted, version) VALUES ($1, $2, $3, 'c', $4, nextval('sync.change_version'))`, [projectId, itemId, ADA, deleted]);
    }
    // Someone else's task is never listed.
    await harness.create(BEN, 'item_add', { content: 'not Ada’s' });
  });
  afterAll(() => harness.stop());

  it.each<[string, Omit<Extract<TaskListQuery, { resource: 'tasks' }>, 'resource'>]>([
    ['every active task', {}],
    ['one project', { project_id: 'project' }],
    ['one label, any case', { label: 'A"B' }],
    ['some ids', { ids: ['plain', 'fixed', 'deleted'] }],
    ['a parent', { parent_id: 'plain' }],
  ])('answer %s as the JavaScript writer does, byte for byte', async (_name, given) => {
    const query = {
      ...given,
      project_id: given.project_id === undefined ? undefined : projectId,
      ids: given.ids?.map((name) => ids[name]),
      parent_id: given.parent_id === undefined ? undefined : ids[given.parent_id],
    };
    const expected = await textInJs({ resource: 'tasks', ...query });
    expect((JSON.parse(expected) as unknown[]).length).toBeGreaterThan(0);
    const actual = await textBySql(tasksSelection(query));
    expect(actual).toBe(expected);
    expect(JSON.parse(actual)).toEqual(JSON.parse(expected));
  });

  it('write every due shape, the comment counts, deadlines and durations as restV2Task does', async () => {
    const listed = (await writtenBySql(tasksSelection({}))) as Array<Record<string, unknown>>;
    const byContent = new Map(listed.map((task) => [task['content'], task]));
    expect(byContent.get('fixed')?.['due']).toEqual({ string: 'every day at 8:30', is_recurring: true, lang: 'en', date: '2026-11-29', datetime: '2026-11-28T23:30:00Z', timezone: 'Asia/Tokyo' });
    expect(byContent.get('fixedBehind')?.['due']).toMatchObject({ date: '2026-11-27', datetime: '2026-11-28T02:00:00Z' });
    expect(byContent.get('floating')?.['due']).toMatchObject({ date: '2026-11-28', datetime: '2026-11-28T09:15:00', timezone: null });
    expect(byContent.get('noLang')?.['due']).toMatchObject({ lang: 'en', datetime: null });
    expect(byContent.get('in a section')).toMatchObject({ deadline: { date: '2026-12-01', lang: 'en' }, duration: { amount: 30, unit: 'minute' } });
    expect(byContent.get(listed[0]['content'])?.['comment_count']).toBe(2);
    expect(listed.map((task) => task['content'])).not.toContain('closed');
    expect(listed.map((task) => task['content'])).not.toContain('not Ada’s');
  });

  it.each<[string, boolean]>([
    ['all', true],
    ['no date', true],
    ['#Rendered & p1', true],
    ['@a"b', true],
    ['today | overdue', false],
    ['overdue & !recurring', false],
  ])('answer the filter %s as the JavaScript writer does, byte for byte', async (filter, nonEmpty) => {
    const expected = await textInJs({ resource: 'tasks_by_filter', filter });
    if (nonEmpty) expect((JSON.parse(expected) as unknown[]).length).toBeGreaterThan(0);
    expect(await textBySql(await filters.activeWhere(manager(), ADA, filter))).toBe(expected);
  });

  it('read a filter against its clock: today in the user\'s zone (Auckland, a day ahead of UTC at noon)', async () => {
    const listed = (await writtenBySql(await filters.activeWhere(manager(), ADA, 'today', { now: NOW }))) as Array<Record<string, unknown>>;
    // 2026-11-28T12:00Z is the 29th in Auckland: the fixed due in Tokyo (the 29th there) is today, the 28th's day due is not.
    expect(listed.map((task) => task['content'])).toEqual(['fixed']);
  });

  it('leave a filter of several comma lists to the JavaScript writer (one SELECT cannot union them in order)', async () => {
    expect(await filters.activeWhere(manager(), ADA, 'today, no date')).toBeUndefined();
    const { body } = await rendered(ADA, { resource: 'tasks_by_filter', filter: 'today, no date' });
    expect(JSON.parse(body)).toEqual(await writtenInJs({ resource: 'tasks_by_filter', filter: 'today, no date' }));
  });

  it('answer through the renderer what the JavaScript writer does, and fall back to it for a zone PostgreSQL does not know', async () => {
    const query: TaskListQuery = { resource: 'tasks', project_id: projectId };
    expect((await rendered(ADA, query)).body).toBe(await textInJs(query));

    await setDue(ids['sectioned'], UNKNOWN_ZONE);
    try {
      // PostgreSQL refused the zone when the task was written: its stored text is NULL, the list leaves it to JavaScript (so the fallback below is what answers)...
      expect((await manager().query<Array<{ stored: string | null }>>(`SELECT rest_v2_json AS stored FROM sync.items WHERE id = $1`, [ids['sectioned']]))[0].stored).toBeNull();
      const { sql, params } = restV2TaskListSql(tasksSelection({ project_id: projectId }), render.public_url);
      expect(notWritten(await manager().query<Array<{ task: string | null }>>(sql, params))).toBe(1);
      // ...and the renderer answers what Luxon writes: the date in UTC, the zone as stored.
      const { body } = await rendered(ADA, query);
      const listed = JSON.parse(body) as Array<Record<string, unknown>>;
      expect(listed).toEqual(await writtenInJs(query));
      expect(listed.find((task) => task['id'] === ids['sectioned'])?.['due']).toMatchObject({ date: '2026-11-28', datetime: '2026-11-28T10:00:00Z', timezone: 'Not/A_Zone' });
    } finally {
      await setDue(ids['sectioned'], null);
    }
  });

  it('fall back to the JavaScript writer for a value PostgreSQL cannot write as JavaScript would (a number JSON.parse rounds)', async () => {
    const query: TaskListQuery = { resource: 'tasks', project_id: projectId };
    await harness.dataSource.query(`UPDATE sync.items SET duration = '{"amount": 12345678901234567890, "unit": "minute"}' WHERE id = $1`, [ids['sectioned']]);
    try {
      const { sql, params } = restV2TaskListSql(tasksSelection({ project_id: projectId }), render.public_url);
      expect(notWritten(await manager().query<Array<{ task: string | null }>>(sql, params))).toBe(1);
      const { body } = await rendered(ADA, query);
      expect(body).toBe(await textInJs(query));
      expect((JSON.parse(body) as Array<Record<string, unknown>>).find((task) => task['id'] === ids['sectioned'])?.['duration']).toEqual({ unit: 'minute', amount: 12345678901234567000 });
    } finally {
      await harness.dataSource.query(`UPDATE sync.items SET duration = '{"amount": 30, "unit": "minute"}' WHERE id = $1`, [ids['sectioned']]);
    }
  });

  it('write any stored due, and any text, as the JavaScript writer does (fast-check)', async () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', '\u0001', '😀', 'é'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), maxLength: 12 });
    // The shapes the domain stores (parse-due's formatDay, formatFloating, formatInstant), dates no
    // calendar has, and text that is no ISO date. An ISO shape the domain never stores (a fraction of a
    // second, an offset) reads as an instant to Luxon but not to the SQL's stored-shape check: not generated.
    const date = fc.oneof(fc.constantFrom('2026-11-28', '2026-02-29', '2026-11-28T09:15:00', '2026-11-28T23:30:00Z', '0999-01-02T03:04:05Z', '2026-02-30T10:00:00Z', 'not a date', ''), text);
    const zone = fc.constantFrom(null, '', 'UTC', 'Asia/Tokyo', 'America/Los_Angeles', 'Europe/Berlin', 'Asia/Kolkata');
    const due = fc.oneof(
      fc.record({ date, timezone: zone, string: text, lang: fc.oneof(text, fc.constantFrom('en', 'de')), is_recurring: fc.boolean() }),
      fc.record({ date, timezone: fc.option(zone, { nil: undefined }), string: fc.option(text, { nil: undefined }), lang: fc.option(fc.oneof(text, fc.constant(null)), { nil: undefined }), is_recurring: fc.option(fc.oneof(fc.boolean(), fc.constant(null)), { nil: undefined }) }, { requiredKeys: ['date'] }),
    );
    const query: TaskListQuery = { resource: 'tasks', ids: [ids['plain']] };
    let written = 0;
    await fc.assert(
      fc.asyncProperty(due, text, async (stored, content) => {
        await harness.dataSource.query(`UPDATE sync.items SET due = $2::jsonb, content = $3 WHERE id = $1`, [ids['plain'], JSON.stringify(stored), content]);
        const { sql, params } = restV2TaskListSql(tasksSelection({ ids: [ids['plain']] }), render.public_url);
        const expected = await textInJs(query);
        const body = await manager()
          .query<Array<{ task: string | null }>>(sql, params)
          .then((rows) => taskListBody(rows)?.toString())
          // A date no calendar has (2026-02-30T10:00:00Z) fails the statement (22008): the renderer answers in JavaScript.
          .catch((error: { code?: string; driverError?: { code?: string } }) => expect(error.driverError?.code ?? error.code).toBe('22008'));
        if (typeof body === 'string') {
          written++;
          expect(body).toBe(expected);
        }
        expect((await rendered(ADA, query)).body).toBe(expected);
      }),
      { numRuns: 120 },
    );
    // Not vacuous: the SQL writer answered for a good share of the cases (about half of them; a
    // loaded run saw exactly 60 of 120, so the bound is a quarter, well clear of chance).
    expect(written).toBeGreaterThan(30);
    await harness.dataSource.query(`UPDATE sync.items SET due = NULL, content = $2 WHERE id = $1`, [ids['plain'], PLAIN_CONTENT]);
  });

  it('answer an empty list as []', async () => {
    expect((await rendered(BEN, { resource: 'tasks', label: 'nothing has this' })).body).toBe('[]');
  });
});
