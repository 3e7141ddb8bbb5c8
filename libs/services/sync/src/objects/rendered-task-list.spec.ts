import { restV2Task } from '@doable/contracts-rest';
import type { ApiTask, ObjectsRequest } from '@doable/contracts-sync';
import { checkRenderable, renderTaskList } from './rendered-task-list';

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

const principal = { userId: '1', scopes: ['data:read_write'] } as unknown as ObjectsRequest['principal'];
const render = { dialect: 'rest-v2', public_url: 'https://doable.example' } as const;

describe('task lists rendered by the sync service', () => {
  it('are the JSON text of the REST v2 tasks, as rest would have serialised them', () => {
    const text = renderTaskList(render, [task, { ...task, id: '6000000002', due: null }]);
    expect(text).toBe(JSON.stringify([restV2Task(task, render.public_url), restV2Task({ ...task, id: '6000000002', due: null }, render.public_url)]));
    expect(JSON.parse(text)[0]).toMatchObject({ id: '6000000001', url: 'https://doable.example/app/task/6000000001', creator_id: '1', due: { date: '2026-11-23' } });
    expect(renderTaskList(render, [])).toBe('[]');
  });

  it('are asked only of task lists', () => {
    const request = (query: ObjectsRequest['query']): ObjectsRequest => ({ principal, commands: [], query, render });
    expect(() => checkRenderable(request({ resource: 'tasks_by_filter', filter: 'today' }))).not.toThrow();
    expect(() => checkRenderable(request({ resource: 'tasks', project_id: '2200000001' }))).not.toThrow();
    expect(() => checkRenderable(request({ resource: 'task', id: '6000000001' }))).toThrow(/only task lists/);
    expect(() => checkRenderable(request(null))).toThrow(/only task lists/);
    expect(() => checkRenderable({ principal, commands: [], query: { resource: 'task', id: '1' } })).not.toThrow();
  });
});
