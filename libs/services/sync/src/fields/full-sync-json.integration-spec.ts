import { createLogger } from '@doable/shared-logging';
import { OutboxRelay } from '@doable/shared-database';
import { Database } from '@doable/shared-runtime';
import type { ServiceClient } from '@doable/shared-transport';
import { answerText, API_V1_JSON, SYNC_DIALECTS, V9_JSON } from '@doable/sync-dialects';
import { CompletionStatsRepository, ItemRepository, LabelRepository, NoteRepository, PlanLimitsRepository, ProductivityStatsService, ProjectRepository } from '@doable/sync-domain';
import { WorkspaceHarness } from '@doable/sync-engine/testing';
import { ItemSource, MembershipChangesRepository, NoteSource, ProjectSource, type ReadNeeds, type SyncRead, SyncReader } from '@doable/sync-read';
import fc from 'fast-check';

const ADA = '7711';
const BEN = '7712';
const CAT = '7713';

/** Every character JSON escapes, and some it does not: quotes, backslashes, controls, a line separator, emoji, accents. */
const TRICKY = 'quotes " and \\ and \\" too, new\nline, tab\t, bell \u0007, unit \u001f, del \u007f, line sep \u2028, emoji 😀👍🏽, ünïcødé, </script>';

/** Stored dues of every shape writeDue passes on, including ones no command makes (older rows, hand edits). */
const DUES: Readonly<Record<string, unknown>> = {
  day: { date: '2026-11-28', timezone: null, string: 'Nov 28', lang: 'en', is_recurring: false },
  fixed: { date: '2026-11-28T23:30:00Z', timezone: 'Asia/Tokyo', string: 'every day at 8:30', lang: 'en', is_recurring: true },
  floating: { date: '2026-11-28T09:15:00', timezone: null, string: 'at 9:15', lang: 'fr', is_recurring: false },
  noLang: { date: '2026-11-26', timezone: null, string: 'Nov 26', is_recurring: false },
  extraKeys: { is_recurring: null, date: '2026-11-27', string: 'with "quotes" \\', lang: 'de', timezone: 'Europe/Berlin', datetime: 'ignored', extra: [1, 2] },
  emptyObject: {},
  aString: 'just text',
  falseValue: false,
  zero: 0,
  aNumber: 7,
};

/**
 * A full sync's tasks and comments written by PostgreSQL (ReadNeeds.json, issue #48) against the
 * JavaScript writers over the rows the same read answers otherwise: the whole answer byte for
 * byte, for api/v1 and v9, over every kind of value the tables' lines hold.
 */
describe('a full sync written by PostgreSQL, byte for byte as the JavaScript writers write it (real PostgreSQL)', () => {
  const harness = new WorkspaceHarness();
  const items = new ItemRepository();
  const notes = new NoteRepository();
  const itemSource = new ItemSource(items, notes);
  const noteSource = new NoteSource(notes);
  let reader: SyncReader;
  const ids: Record<string, string> = {};
  let projectId: string;

  const manager = () => harness.dataSource.manager;
  const sql = (text: string, params: unknown[] = []) => harness.dataSource.query(text, params);
  /** The same full read with and without the dialect's SQL, at the same moment (so the same full_sync_date_utc). */
  const reads = async (userId: string, needs: ReadNeeds, types: readonly string[] = ['projects', 'items', 'notes']): Promise<{ inJs: SyncRead; bySql: SyncRead }> => {
    const inJs = await reader.read(userId, '*', types);
    const bySql = await reader.read(userId, '*', types, needs);
    return { inJs, bySql: { ...bySql, generatedAt: inJs.generatedAt } };
  };
  const answers = (dialect: 'sync-api-v1' | 'sync-v9', read: { inJs: SyncRead; bySql: SyncRead }) => ({
    inJs: JSON.stringify(SYNC_DIALECTS[dialect].render({ read: read.inJs, tempIdMapping: {} })),
    bySql: answerText(SYNC_DIALECTS[dialect].render({ read: read.bySql, tempIdMapping: {} })),
  });

  beforeAll(async () => {
    await harness.start('full_sync_json', { [ADA]: 'ada@fsj.test', [BEN]: 'ben@fsj.test', [CAT]: 'cat@fsj.test' });
    const db = new Database(harness.dataSource, 'sync', new OutboxRelay(harness.dataSource, 'sync', { publish: () => Promise.resolve() }, createLogger('test', 'silent')));
    const noServices = { request: () => Promise.reject(new Error('no remote calls in these reads')) } as unknown as ServiceClient;
    reader = new SyncReader(
      db,
      harness.repositories.profiles,
      [new ProjectSource(harness.repositories.projects), itemSource, noteSource],
      noServices,
      new ProductivityStatsService(new CompletionStatsRepository(), harness.repositories.profiles),
      items,
      new ProjectRepository(),
      new LabelRepository(),
      new MembershipChangesRepository(),
      new PlanLimitsRepository(),
    );

    projectId = await harness.create(ADA, 'project_add', { name: 'Golden "quoted" ✓' });
    const sectionId = await harness.create(ADA, 'section_add', { project_id: projectId, name: 'Section' });
    ids['plain'] = await harness.create(ADA, 'item_add', { project_id: projectId, content: TRICKY, description: TRICKY, labels: ['a"b', 'Ünï', '😀', 'back\\slash'], priority: 4 });
    ids['recurring'] = await harness.create(ADA, 'item_add', { project_id: projectId, content: 'recurring', due: { string: 'every day at 9' } });
    ids['sectioned'] = await harness.create(ADA, 'item_add', { section_id: sectionId, content: 'in a section', deadline: { date: '2026-12-24' }, duration: { amount: 90, unit: 'minute' } });
    ids['days'] = await harness.create(ADA, 'item_add', { project_id: projectId, content: 'two days', deadline: { date: '2027-01-02', lang: 'de' }, duration: { amount: 2, unit: 'day' } });
    ids['child'] = await harness.create(ADA, 'item_add', { parent_id: ids['plain'], content: 'child', labels: ['a"b'] });
    ids['grandchild'] = await harness.create(ADA, 'item_add', { parent_id: ids['child'], content: 'grandchild' });
    ids['checked'] = await harness.create(ADA, 'item_add', { parent_id: ids['plain'], content: 'checked' });
    ids['assigned'] = await harness.create(ADA, 'item_add', { project_id: projectId, content: 'assigned' });
    ids['small'] = await harness.create(ADA, 'item_add', { project_id: projectId, content: 'a small id' });
    ids['closed'] = await harness.create(ADA, 'item_add', { project_id: projectId, content: 'closed' });
    ids['deleted'] = await harness.create(ADA, 'item_add', { project_id: projectId, content: 'deleted' });
    for (const name of Object.keys(DUES)) ids[name] = await harness.create(ADA, 'item_add', { project_id: projectId, content: `due ${name}` });
    for (const [name, due] of Object.entries(DUES)) await sql(`UPDATE sync.items SET due = $2::jsonb WHERE id = $1`, [ids[name], JSON.stringify(due)]);
    expect(await harness.status(ADA, 'item_close', { id: ids['closed'] })).toBe('ok');
    expect(await harness.status(ADA, 'item_delete', { id: ids['deleted'] })).toBe('ok');
    // What no command of this spec sets: a completion in the year 999 (microseconds too), an assignee, no recorded adder, collapsed, day orders.
    await sql(`UPDATE sync.items SET checked = true, completed_at = '0999-02-03 04:05:06.789123+00' WHERE id = $1`, [ids['checked']]);
    await sql(`UPDATE sync.items SET responsible_uid = $2, assigned_by_uid = $3, added_by_uid = NULL, is_collapsed = true, day_order = 3 WHERE id = $1`, [ids['assigned'], BEN, ADA]);
    await sql(`UPDATE sync.items SET day_order = 0 WHERE id = ANY($1::bigint[])`, [[ids['plain'], ids['fixed']]]);
    await sql(`UPDATE sync.items SET duration = '{"amount": 1.5, "unit": "minute", "note": [true, null, {"x": -2.25}]}' WHERE id = $1`, [ids['extraKeys']]);
    // Task ids start at 6000000001; an id below 2^32 is an array index to JavaScript, which puts it first among day_orders' keys.
    await sql(`UPDATE sync.items SET id = 42, day_order = 7 WHERE id = $1`, [ids['small']]);
    ids['small'] = '42';

    ids['note'] = await harness.create(ADA, 'note_add', { item_id: ids['plain'], content: TRICKY });
    ids['attached'] = await harness.create(ADA, 'note_add', {
      item_id: ids['plain'],
      content: 'with a file',
      file_attachment: { file_url: 'https://files.example/a.png', file_name: 'a "b" \\ c.png', file_size: 1234, file_type: 'image/png', image: 'https://files.example/a.png', image_width: 640, image_height: 480, tn_l: ['https://files.example/l.png', 100, 200] },
      uids_to_notify: [BEN],
    });
    ids['projectNote'] = await harness.create(ADA, 'note_add', { project_id: projectId, content: 'on the project 😀' });
    ids['deletedNote'] = await harness.create(ADA, 'note_add', { item_id: ids['plain'], content: 'deleted' });
    expect(await harness.status(ADA, 'note_delete', { id: ids['deletedNote'] })).toBe('ok');
    await sql(`UPDATE sync.notes SET reactions = '{"👍": ["7711"], "❤️": ["7711", "7712"], "": []}' WHERE id = $1`, [ids['note']]);
    // Someone else's data is never listed.
    await harness.create(BEN, 'item_add', { content: 'not Ada’s' });
  });
  afterAll(() => harness.stop());

  it.each<['sync-api-v1' | 'sync-v9', ReadNeeds]>([
    ['sync-api-v1', { json: API_V1_JSON }],
    ['sync-v9', { json: V9_JSON }],
  ])('answer %s byte for byte as the JavaScript writers do', async (dialect, needs) => {
    const read = await reads(ADA, needs);
    // Not vacuous: PostgreSQL wrote both resources, and the rows were not read.
    expect(Object.keys(read.bySql.json ?? {})).toEqual(['items', 'notes']);
    expect(read.bySql.rows.items).toBeUndefined();
    expect(read.inJs.json).toBeUndefined();
    const { inJs, bySql } = answers(dialect, read);
    expect(bySql).toBe(inJs);
    const parsed = JSON.parse(bySql) as { items: Array<Record<string, unknown>>; notes: unknown[]; project_notes: unknown[]; day_orders: Record<string, number> };
    expect(parsed).toEqual(JSON.parse(inJs));
    expect(parsed.items.map((task) => task['id'])).not.toContain(ids['deleted']);
    expect(parsed.items.map((task) => task['content'])).not.toContain('not Ada’s');
    expect(parsed.items).toHaveLength(Object.keys(ids).filter((name) => !['closed', 'deleted', 'note', 'attached', 'projectNote', 'deletedNote'].includes(name)).length);
    expect([parsed.notes.length, parsed.project_notes.length]).toEqual([2, 1]);
    expect(Object.keys(parsed.day_orders)).toEqual(['42', ids['plain'], ids['assigned'], ids['fixed']]);
  });

  it('write each kind of value as the JavaScript writer does: ids as strings, counts, nulls, nested objects, timestamps', async () => {
    const read = await reads(ADA, { json: API_V1_JSON });
    const parsed = JSON.parse(answers('sync-api-v1', read).bySql) as { items: Array<Record<string, unknown>>; notes: Array<Record<string, unknown>>; project_notes: Array<Record<string, unknown>> };
    const task = (name: string) => parsed.items.find((item) => item['id'] === ids[name]);
    expect(task('plain')).toMatchObject({ content: TRICKY, description: TRICKY, labels: ['a"b', 'Ünï', '😀', 'back\\slash'], priority: 4, note_count: 2, parent_id: null, due: null, checked: false });
    expect(task('recurring')?.['due']).toMatchObject({ is_recurring: true });
    expect(task('sectioned')).toMatchObject({ deadline: { date: '2026-12-24' }, duration: { amount: 90, unit: 'minute' }, section_id: expect.any(String) });
    expect(task('checked')).toMatchObject({ checked: true, completed_at: '0999-02-03T04:05:06.789000Z', parent_id: ids['plain'] });
    expect(task('assigned')).toMatchObject({ responsible_uid: BEN, assigned_by_uid: ADA, added_by_uid: null, is_collapsed: true, day_order: 3 });
    expect(task('noLang')?.['due']).toEqual({ date: '2026-11-26', timezone: null, string: 'Nov 26', is_recurring: false });
    expect(task('emptyObject')?.['due']).toEqual({});
    expect([task('aString')?.['due'], task('aNumber')?.['due'], task('falseValue')?.['due'], task('zero')?.['due']]).toEqual([{}, {}, null, null]);
    expect(task('extraKeys')?.['duration']).toEqual({ note: [true, null, { x: -2.25 }], unit: 'minute', amount: 1.5 });
    const comment = parsed.notes.find((note) => note['id'] === ids['note']);
    expect(comment).toMatchObject({ item_id: ids['plain'], content: TRICKY, reactions: { '👍': [ADA], '❤️': [ADA, BEN], '': [] }, file_attachment: null, uids_to_notify: null });
    expect(comment).not.toHaveProperty('project_id');
    expect(parsed.notes.find((note) => note['id'] === ids['attached'])).toMatchObject({ reactions: null, uids_to_notify: [BEN], file_attachment: { tn_l: ['https://files.example/l.png', 100, 200], image_width: 640 } });
    expect(parsed.project_notes[0]).toMatchObject({ project_id: projectId, content: 'on the project 😀' });
    expect(parsed.project_notes[0]).not.toHaveProperty('item_id');
  });

  it('leave a resource holding a value PostgreSQL cannot write as JavaScript would to the JavaScript writer, and still answer the same', async () => {
    // A number JSON.parse rounds, and an all-digit key JavaScript moves first.
    await sql(`UPDATE sync.items SET duration = '{"amount": 12345678901234567890, "unit": "minute"}' WHERE id = $1`, [ids['days']]);
    await sql(`UPDATE sync.notes SET reactions = '{"b": ["7711"], "10": ["7712"]}' WHERE id = $1`, [ids['attached']]);
    try {
      expect(await itemSource.listActiveJson(manager(), ADA, API_V1_JSON.items!)).toBeUndefined();
      expect(await noteSource.listActiveJson(manager(), ADA, API_V1_JSON.notes!)).toBeUndefined();
      const read = await reads(ADA, { json: API_V1_JSON });
      expect(read.bySql.json).toBeUndefined();
      expect(read.bySql.rows.items?.length).toBeGreaterThan(0);
      const { inJs, bySql } = answers('sync-api-v1', read);
      expect(bySql).toBe(inJs);
    } finally {
      await sql(`UPDATE sync.items SET duration = '{"amount": 2, "unit": "day"}' WHERE id = $1`, [ids['days']]);
      await sql(`UPDATE sync.notes SET reactions = '{}' WHERE id = $1`, [ids['attached']]);
    }
  });

  it('read the rows where the dialect also needs them beside the answer (the old generations’ needs)', async () => {
    const read = await reader.read(ADA, '*', ['items', 'notes', 'labels'], { json: API_V1_JSON, labels: true });
    expect(read.json).toBeUndefined();
    expect(read.rows.items?.length).toBeGreaterThan(0);
  });

  it('answer an account without tasks or comments with empty lists', async () => {
    const read = await reads(CAT, { json: API_V1_JSON });
    const { inJs, bySql } = answers('sync-api-v1', read);
    expect(bySql).toBe(inJs);
    expect(JSON.parse(bySql)).toMatchObject({ items: [], day_orders: {}, notes: [], project_notes: [] });
  });

  describe('any values the columns can hold (fast-check)', () => {
    let taskId: string;
    let noteId: string;
    beforeAll(async () => {
      taskId = await harness.create(CAT, 'item_add', { content: 'random' });
      noteId = await harness.create(CAT, 'note_add', { item_id: taskId, content: 'random' });
    });

    const text = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', '\u0001', '\u2028', '😀', 'é'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), maxLength: 20 });
    const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.integer(),
        fc.constantFrom(1.5, -0.25, 0, 1e21, 12345678901234567890),
        text,
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.oneof(text, fc.constantFrom('date', 'timezone', 'string', 'lang', 'is_recurring', '7')), tie('value'), { maxKeys: 5 }),
      ),
    })).value;
    const nullableJson = fc.option(json, { nil: undefined });
    /** A due as the domain stores it (the cheap path of the due's SQL), with any text in it. */
    const storedDue = fc.record({ date: fc.oneof(text, fc.constantFrom('2026-11-28', '2026-11-28T09:15:00', '2026-11-28T23:30:00Z')), timezone: fc.option(text, { nil: null }), string: text, lang: text, is_recurring: fc.boolean() });
    const task = fc.record({
      content: text,
      description: text,
      labels: fc.array(text, { maxLength: 4 }),
      priority: fc.integer({ min: 1, max: 4 }),
      day_order: fc.integer({ min: -1, max: 2 ** 31 - 1 }),
      checked: fc.boolean(),
      is_collapsed: fc.boolean(),
      due: fc.oneof(nullableJson, storedDue),
      deadline: nullableJson,
      duration: nullableJson,
      completed_at: fc.option(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), { nil: null }),
    });
    const note = fc.record({
      content: text,
      file_attachment: nullableJson,
      uids_to_notify: fc.option(fc.array(fc.constantFrom(ADA, BEN, CAT), { maxLength: 3 }), { nil: null }),
      reactions: json,
    });
    const jsonb = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

    it('write a task and a comment as the JavaScript writers do, or leave them to them', async () => {
      let written = 0;
      await fc.assert(
        fc.asyncProperty(task, note, async (t, n) => {
          await sql(
            `UPDATE sync.items SET content = $2, description = $3, labels = $4, priority = $5, day_order = $6, checked = $7, is_collapsed = $8, due = $9::jsonb, deadline = $10::jsonb, duration = $11::jsonb, completed_at = $12 WHERE id = $1`,
            [taskId, t.content, t.description, t.labels, t.priority, t.day_order, t.checked, t.is_collapsed, jsonb(t.due), jsonb(t.deadline), jsonb(t.duration), t.completed_at],
          );
          await sql(`UPDATE sync.notes SET content = $2, file_attachment = $3::jsonb, uids_to_notify = $4, reactions = $5::jsonb WHERE id = $1`, [noteId, n.content, jsonb(n.file_attachment), n.uids_to_notify, jsonb(n.reactions)]);
          const read = await reads(CAT, { json: API_V1_JSON });
          const { inJs, bySql } = answers('sync-api-v1', read);
          expect(bySql).toBe(inJs);
          if (read.bySql.json?.['items'] && read.bySql.json['notes']) written++;
        }),
        { numRuns: 60 },
      );
      // Not vacuous: most answers were PostgreSQL's.
      expect(written).toBeGreaterThan(20);
    });
  });
});
