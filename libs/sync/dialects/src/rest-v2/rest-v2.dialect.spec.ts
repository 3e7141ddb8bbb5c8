import { type ApiTask, type ObjectOf, type ObjectQueryFor, type RenderedQuery, type RenderedResource, TASK_FIELDS } from '@doable/contracts-sync';
import type { RenderSource, TaskSelection } from '../shared/object-renderer';
import { restV2Dialect } from './rest-v2.dialect';
import { restV2TaskJsonSql } from './rest-v2-task-list.sql';
import { restV2Task } from './rest-v2-task.writer';
import { restV2Label } from './rest-v2.writers';

const render = { dialect: 'rest-v2', public_url: 'https://doable.example' } as const;

const task: ApiTask = {
  id: '6000000001',
  user_id: '1',
  project_id: '2200000001',
  section_id: null,
  parent_id: null,
  added_by_uid: null,
  assigned_by_uid: null,
  responsible_uid: null,
  labels: ['Errand'],
  deadline: { date: '2026-12-01', lang: 'en' },
  duration: { amount: 15, unit: 'minute' },
  checked: false,
  is_deleted: false,
  added_at: '2026-11-21T10:00:00.000000Z',
  completed_at: null,
  updated_at: '2026-11-21T10:00:00.000000Z',
  due: { date: '2026-11-22T23:30:00Z', string: 'every day', is_recurring: true, timezone: 'Asia/Tokyo', lang: 'en' },
  priority: 4,
  child_order: 3,
  content: 'Buy "milk"',
  description: '',
  note_count: 2,
  day_order: -1,
  is_collapsed: false,
};
const label = { id: '2100000001', name: 'errand', color: 'red', item_order: 3, is_deleted: false, is_favorite: true, order: 3 };

/** A source answering fixed objects; `selection` and `statement` stand for PostgreSQL's side. */
function sourceOf(objects: readonly unknown[], options: { selection?: TaskSelection; statement?: () => Promise<unknown[]> } = {}) {
  const asked: string[] = [];
  const source: RenderSource = {
    objects<R extends RenderedResource>(query: ObjectQueryFor<R>) {
      asked.push(`objects ${query.resource}`);
      // The fixed objects stand for what the read of this resource answers.
      return Promise.resolve({ objects: objects as ObjectOf<R>[], hasMore: false });
    },
    taskSelection: (query) => {
      asked.push(`selection ${query.resource}`);
      return Promise.resolve(options.selection);
    },
    query: <T>(sql: string) => {
      asked.push(`query ${sql.slice(0, 6)}`);
      return (options.statement ?? (() => Promise.resolve([])))() as Promise<T[]>;
    },
  };
  return { source, asked };
}

function rendering(query: RenderedQuery) {
  return { render: (source: RenderSource) => restV2Dialect.render(query, render, source) };
}

describe('the REST v2 dialect, as the sync service renders answers in it', () => {
  it('writes a single object as the object itself and a list as its array, in JavaScript, as rest would have serialised them', async () => {
    const one = sourceOf([task]);
    expect((await rendering({ resource: 'task', id: task.id }).render(one.source)).body).toBe(JSON.stringify(restV2Task(task, render.public_url)));
    expect(one.asked).toEqual(['objects task']);
    const list = sourceOf([label, { ...label, id: '2100000002' }]);
    expect((await rendering({ resource: 'labels' }).render(list.source)).body).toBe(JSON.stringify([restV2Label(label), restV2Label({ ...label, id: '2100000002' })]));
    expect((await rendering({ resource: 'comments', task_id: task.id }).render(sourceOf([]).source)).body).toBe('[]');
  });

  it('has PostgreSQL write a task list that is one SELECT, and passes its text on as UTF-8 bytes', async () => {
    const { source, asked } = sourceOf([task], { selection: { where: 'true', params: ['1'] }, statement: () => Promise.resolve([{ task: '{"id":"6000000001","content":"Café 🚀"}' }, { task: '{"id":"6000000002"}' }]) });
    const { body, hasMore } = await rendering({ resource: 'tasks', project_id: task.project_id }).render(source);
    expect({ bytes: Buffer.isBuffer(body), text: body.toString(), hasMore }).toEqual({ bytes: true, text: '[{"id":"6000000001","content":"Café 🚀"},{"id":"6000000002"}]', hasMore: false });
    expect(asked).toEqual(['selection tasks', 'query WITH c']);
  });

  it('writes a task list in JavaScript where it is not one SELECT, or PostgreSQL does not know a due zone', async () => {
    const expected = JSON.stringify([restV2Task(task, render.public_url)]);
    const many = sourceOf([task]);
    expect((await rendering({ resource: 'tasks_by_filter', filter: 'today, no date' }).render(many.source)).body).toBe(expected);
    expect(many.asked).toEqual(['selection tasks_by_filter', 'objects tasks_by_filter']);

    const unknownZone = Object.assign(new Error('time zone "Not/A_Zone" not recognized'), { driverError: { code: '22023' } });
    const zoned = sourceOf([task], { selection: { where: 'true', params: [] }, statement: () => Promise.reject(unknownZone) });
    expect((await rendering({ resource: 'tasks' }).render(zoned.source)).body).toBe(expected);

    // A task PostgreSQL could not write as JavaScript would (a number JSON.parse rounds): the list is JavaScript's.
    const unwritten = sourceOf([task], { selection: { where: 'true', params: [] }, statement: () => Promise.resolve([{ task: null }]) });
    expect((await rendering({ resource: 'tasks' }).render(unwritten.source)).body).toBe(expected);
    expect(unwritten.asked).toEqual(['selection tasks', 'query WITH c', 'objects tasks']);
  });

  it('is written by SQL made from the task table, as its JavaScript writer is', () => {
    const sql = restV2TaskJsonSql(TASK_FIELDS, { alias: 'item', computed: { note_count: { sql: '0', type: 'integer' } } }, '$2');
    expect(sql).toContain('"comment_count"');
    expect(Object.keys(restV2Task(task, render.public_url)).every((key) => sql.includes(JSON.stringify(key)))).toBe(true);
  });

  it('lets any other failure of the statement through', async () => {
    const broken = sourceOf([task], { selection: { where: 'true', params: [] }, statement: () => Promise.reject(Object.assign(new Error('deadlock'), { code: '40P01' })) });
    await expect(rendering({ resource: 'tasks' }).render(broken.source)).rejects.toThrow('deadlock');
  });
});
