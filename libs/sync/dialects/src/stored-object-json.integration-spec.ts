import { COMMENT_FIELDS, TASK_FIELDS } from '@doable/contracts-sync';
import { WorkspaceHarness } from '@doable/sync-engine/testing';
import { restV2TaskJsonSql, splitRestV2TaskJsonSql } from './rest-v2/rest-v2-task-list.sql';
import { objectJsonSql } from './shared/field-json.sql';
import { STORED_NOTE_JSON, STORED_TASK_JSON } from './shared/stored-object-json';
import { API_V1_JSON, V9_JSON } from './shared/sync-json';
import { noteJsonFunctionBody, taskJsonFunctionBody } from './stored-json.trigger.sql';

const ADA = '7801';
const URL = `'https://doable.example/app/task/'`;
/** The read's computed values, fixed: the stored text is compared with the whole text written at read time. */
const ROW = { alias: 'item', computed: { note_count: { sql: '3', type: 'integer' as const } } };

/** Dues the stored texts must write as the read-time SQL does, and ones PostgreSQL cannot write (a zone it does not know, a February 30). */
const DUES: Readonly<Record<string, unknown>> = {
  none: null,
  day: { date: '2026-11-28', timezone: null, string: 'Nov 28', lang: 'en', is_recurring: false },
  fixed: { date: '2026-11-28T23:30:00Z', timezone: 'Asia/Tokyo', string: 'every day at 8:30', lang: 'en', is_recurring: true },
  floating: { date: '2026-11-28T09:15:00', timezone: null, string: 'at 9:15', lang: 'fr', is_recurring: false },
  odd: { date: '2026-11-27', string: 'with "quotes" \\', lang: 'de', timezone: 'Europe/Berlin', extra: [1, 2] },
  unknownZone: { date: '2026-11-28T10:00:00Z', timezone: 'Not/A_Zone', string: 'at 10', lang: 'en', is_recurring: false },
  february30: { date: '2026-02-30T10:00:00Z', timezone: 'UTC', string: 'never', lang: 'en', is_recurring: false },
};

/**
 * The texts PostgreSQL keeps with each task and comment (migrations StoredTaskJson and
 * StoredNoteJson): the triggers the migrations installed are the renderers' current SQL, and
 * they write, on every INSERT and UPDATE by any path, what the same renderers write at read time.
 */
describe('the texts stored with each task and comment (sync.items, sync.notes, real PostgreSQL)', () => {
  const harness = new WorkspaceHarness();
  let projectId: string;
  const sql = <T>(text: string, params: unknown[] = []) => harness.dataSource.query<T>(text, params);

  beforeAll(async () => {
    await harness.start('stored_task_json', { [ADA]: 'ada@stj.test' });
    projectId = await harness.create(ADA, 'project_add', { name: 'Stored' });
  });

  afterAll(() => harness.stop());

  it.each([
    [STORED_TASK_JSON.fn, taskJsonFunctionBody, 'StoredTaskJson1764700000100', 'sync.items'],
    [STORED_NOTE_JSON.fn, noteJsonFunctionBody, 'StoredNoteJson1764700000200', 'sync.notes'],
  ])("is written by %s as the migrations installed it, which is the renderers' current SQL", async (fn, body, migration, relation) => {
    const [{ installed }] = await sql<Array<{ installed: string }>>(`SELECT prosrc AS installed FROM pg_proc WHERE oid = $1::regprocedure`, [`${fn}()`]);
    const verdict = installed === body() ? 'current' : `the renderers' SQL differs from ${fn} as migration ${migration} (or a later one) installed it: add a migration that replaces the function with its body from stored-json.trigger.sql.ts and rewrites ${relation}`;
    expect(verdict).toBe('current');
  });

  /** Each task's stored texts, the read's rest appended, beside the whole texts the renderers write at read time over the same row. */
  const compared = (ids: readonly string[]) => {
    const restV2 = splitRestV2TaskJsonSql(TASK_FIELDS, URL);
    if (!restV2) throw new Error('the task table\'s REST v2 text is not cut for storing');
    return sql<Array<{ id: string; api_v1: string | null; v9: string | null; rest_v2: string | null; api_v1_now: string | null; v9_now: string | null; rest_v2_now: string | null }>>(
      `SELECT item.id::text, ${API_V1_JSON.items!(ROW)} AS api_v1, ${V9_JSON.items!(ROW)} AS v9,
              (item.${STORED_TASK_JSON.columns.restV2} || ${restV2.rest(ROW)}) AS rest_v2,
              ${objectJsonSql(TASK_FIELDS, 'apiV1', 'taskRowWriter')(ROW)} AS api_v1_now, ${objectJsonSql(TASK_FIELDS, 'v9', 'taskRowWriter')(ROW)} AS v9_now
         FROM sync.items AS item WHERE item.id = ANY($1::bigint[]) ORDER BY item.id`,
      [ids],
    );
  };

  it('writes a task inserted by any path (an older release\'s INSERT names none of its columns) as the read-time SQL does, and follows each update', async () => {
    const ids: Record<string, string> = {};
    for (const [name, due] of Object.entries(DUES)) {
      const [{ id }] = await sql<Array<{ id: string }>>(
        `INSERT INTO sync.items (user_id, project_id, content, due, labels, version) VALUES ($1, $2, $3, $4::jsonb, '{"a\\"b"}', nextval('sync.change_version')) RETURNING id::text`,
        [ADA, projectId, `due ${name} "quoted" ✓`, due === null ? null : JSON.stringify(due)],
      );
      ids[name] = id;
    }
    const writable = Object.keys(DUES).filter((name) => name !== 'unknownZone' && name !== 'february30');
    const check = async () => {
      const rows = await compared(Object.values(ids));
      for (const row of rows) {
        const name = Object.keys(ids).find((key) => ids[key] === row.id)!;
        expect({ name, api_v1: row.api_v1, v9: row.v9 }).toEqual({ name, api_v1: row.api_v1_now, v9: row.v9_now });
        expect(row.api_v1).not.toBeNull();
        if (writable.includes(name)) expect({ name, rest_v2: row.rest_v2 }).toEqual({ name, rest_v2: expect.any(String) });
        else expect({ name, rest_v2: row.rest_v2 }).toEqual({ name, rest_v2: null });
      }
      // The REST v2 text PostgreSQL can write is the read-time SQL's, byte for byte.
      const restV2Now = await sql<Array<{ id: string; text: string }>>(
        `SELECT item.id::text, ${restV2TaskJsonSql(TASK_FIELDS, ROW, URL)} AS text FROM sync.items AS item WHERE item.id = ANY($1::bigint[]) ORDER BY item.id`,
        [writable.map((name) => ids[name])],
      );
      expect(rows.filter((row) => row.rest_v2 !== null).map((row) => [row.id, row.rest_v2])).toEqual(restV2Now.map((row) => [row.id, row.text]));
    };
    await check();
    await sql(`UPDATE sync.items SET content = content || ' (edited)', is_collapsed = true, checked = true, completed_at = now() WHERE id = ANY($1::bigint[])`, [Object.values(ids)]);
    await check();
    const [{ edited }] = await sql<Array<{ edited: boolean }>>(`SELECT bool_and(${STORED_TASK_JSON.columns.apiV1} LIKE '%(edited)%') AS edited FROM sync.items WHERE id = ANY($1::bigint[])`, [Object.values(ids)]);
    expect(edited).toBe(true);
  });

  it('overwrites a text a writer gives (the trigger is the only writer of the columns)', async () => {
    const [{ id }] = await sql<Array<{ id: string }>>(
      `INSERT INTO sync.items (user_id, project_id, content, version, ${STORED_TASK_JSON.columns.apiV1}, ${STORED_TASK_JSON.columns.restV2}) VALUES ($1, $2, 'given', nextval('sync.change_version'), 'x', 'y') RETURNING id::text`,
      [ADA, projectId],
    );
    await sql(`UPDATE sync.items SET ${STORED_TASK_JSON.columns.v9} = 'z' WHERE id = $1`, [id]);
    const [row] = await compared([id]);
    expect([row.api_v1, row.v9]).toEqual([row.api_v1_now, row.v9_now]);
    expect(row.rest_v2?.startsWith('{"id":')).toBe(true);
  });

  it('is not read where the installed function is not this release\'s (a line added without a migration that replaces it): the task is left to JavaScript', async () => {
    const [{ id }] = await sql<Array<{ id: string }>>(`INSERT INTO sync.items (user_id, project_id, content, version) VALUES ($1, $2, 'stale', nextval('sync.change_version')) RETURNING id::text`, [ADA, projectId]);
    const read = (manager: { query: <T>(text: string, params: unknown[]) => Promise<T> }) =>
      manager.query<Array<{ api_v1: string | null; v9: string | null }>>(`SELECT ${API_V1_JSON.items!(ROW)} AS api_v1, ${V9_JSON.items!(ROW)} AS v9 FROM sync.items AS item WHERE item.id = $1`, [id]);
    expect(await read(harness.dataSource)).toEqual([{ api_v1: expect.stringMatching(/^\{"id":/), v9: expect.stringMatching(/^\{"id":/) }]);
    const rolledBack = new Error('roll back');
    await expect(
      harness.dataSource.transaction(async (manager) => {
        const [{ body }] = await manager.query<Array<{ body: string }>>(`SELECT prosrc AS body FROM pg_proc WHERE oid = $1::regprocedure`, [`${STORED_TASK_JSON.fn}()`]);
        await manager.query(`CREATE OR REPLACE FUNCTION ${STORED_TASK_JSON.fn}() RETURNS trigger LANGUAGE plpgsql AS $stale$${body.replace(/-- api_v1_json [0-9a-f]+/, '-- api_v1_json 0')}$stale$`);
        expect(await read(manager)).toEqual([{ api_v1: null, v9: expect.stringMatching(/^\{"id":/) }]);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
  });

  it('writes a comment as the read-time SQL does, for api/v1 and v9 alike, or leaves it to JavaScript', async () => {
    const [{ id: taskId }] = await sql<Array<{ id: string }>>(`INSERT INTO sync.items (user_id, project_id, content, version) VALUES ($1, $2, 'commented', nextval('sync.change_version')) RETURNING id::text`, [ADA, projectId]);
    const notes: Array<[string | null, unknown, unknown]> = [
      [taskId, null, {}],
      [taskId, { file_name: 'a "b".pdf', file_size: 12, file_type: 'application/pdf', file_url: 'https://x/y' }, { '👍': [ADA] }],
      [null, null, { '❤️': [ADA, '7802'] }],
      [taskId, null, { b: [ADA], 10: ['7802'] }],
    ];
    const ids: string[] = [];
    for (const [item, attachment, reactions] of notes) {
      const [{ id }] = await sql<Array<{ id: string }>>(
        `INSERT INTO sync.notes (project_id, item_id, posted_uid, content, file_attachment, reactions, version) VALUES ($1, $2, $3, 'a "quoted" ✓ comment', $4::jsonb, $5::jsonb, nextval('sync.change_version')) RETURNING id::text`,
        [projectId, item, ADA, attachment === null ? null : JSON.stringify(attachment), JSON.stringify(reactions)],
      );
      ids.push(id);
    }
    const row = { alias: 'note', computed: {} };
    const read = () =>
      sql<Array<{ api_v1: string | null; v9: string | null; api_v1_now: string | null; v9_now: string | null }>>(
        `SELECT ${API_V1_JSON.notes!(row)} AS api_v1, ${V9_JSON.notes!(row)} AS v9,
                ${objectJsonSql(COMMENT_FIELDS, 'apiV1', 'fieldRowWriter')(row)} AS api_v1_now, ${objectJsonSql(COMMENT_FIELDS, 'v9', 'fieldRowWriter')(row)} AS v9_now
           FROM sync.notes AS note WHERE note.id = ANY($1::bigint[]) ORDER BY note.id`,
        [ids],
      );
    const check = async () => {
      const rows = await read();
      expect(rows.map((found) => [found.api_v1, found.v9])).toEqual(rows.map((found) => [found.api_v1_now, found.v9_now]));
      // The all-digit reaction key: JavaScript orders it first, so PostgreSQL writes no text for it.
      expect(rows.map((found) => found.api_v1 === null)).toEqual([false, false, false, true]);
    };
    await check();
    await sql(`UPDATE sync.notes SET content = content || ' (edited)', reactions = reactions || '{"🎉": []}' WHERE id = ANY($1::bigint[])`, [ids]);
    await check();
  });
});
