import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { http } from '@doable/shared-testing';
import { useSystem } from './support/use-system';

/**
 * The wire shape of every REST object in each REST dialect, as golden files (like
 * dialect-golden.e2e-spec.ts does for the Sync API): the keys of each object and of the objects
 * nested in it (`task.due`, `comment.attachment`, ...). REST v1 leaves absent optionals out, so
 * each set is the union over objects with and without them. A change of shape must be made on
 * purpose: `UPDATE_GOLDEN=1 npm test -- e2e/rest-golden` rewrites the files, and the diff shows
 * the change in review.
 */
type Json = Record<string, unknown>;

const NESTED: Record<string, readonly string[]> = {
  task: ['due', 'duration', 'deadline'],
  comment: ['attachment', 'file_attachment'],
};

/** Keys of the objects (union), and of their nested objects as `<name>.<key>`. */
function shapeOf(name: string, objects: readonly Json[]): Record<string, string[]> {
  const shapes: Record<string, string[]> = { [name]: [...new Set(objects.flatMap((object) => Object.keys(object)))].sort() };
  for (const nested of NESTED[name] ?? []) {
    const values = objects.map((object) => object[nested]).filter((value): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value));
    if (values.length > 0) shapes[`${name}.${nested}`] = [...new Set(values.flatMap((value) => Object.keys(value)))].sort();
  }
  return shapes;
}

describe('REST dialect golden shapes (embedded)', () => {
  const { system, account } = useSystem('embedded');
  const ids: Record<string, string> = {};

  const call = async (method: string, path: string, json?: unknown): Promise<any> => {
    const response = await http(system.url, method, path, { token: account.token, json });
    expect({ path, status: response.status }).toEqual({ path, status: 200 });
    return response.body;
  };

  beforeAll(async () => {
    ids['project'] = (await call('POST', '/rest/v2/projects', { name: 'Golden', color: 'red' })).id;
    ids['child'] = (await call('POST', '/rest/v2/projects', { name: 'Golden child', parent_id: ids['project'] })).id;
    ids['section'] = (await call('POST', '/rest/v2/sections', { name: 'Golden section', project_id: ids['project'] })).id;
    ids['label'] = (await call('POST', '/rest/v2/labels', { name: 'golden', color: 'green' })).id;
    ids['task'] = (
      await call('POST', '/rest/v2/tasks', {
        content: 'Golden task',
        project_id: ids['project'],
        section_id: ids['section'],
        labels: ['golden'],
        due_string: 'tomorrow at 9am',
        duration: 30,
        duration_unit: 'minute',
        deadline_date: '2030-01-01',
        assignee_id: null,
      })
    ).id;
    ids['subtask'] = (await call('POST', '/rest/v2/tasks', { content: 'Golden subtask', parent_id: ids['task'] })).id;
    ids['comment'] = (
      await call('POST', '/rest/v2/comments', {
        task_id: ids['task'],
        content: 'Golden comment',
        attachment: { resource_type: 'file', file_url: 'https://files.example.test/a.txt', file_type: 'text/plain', file_name: 'a.txt' },
      })
    ).id;
    ids['projectComment'] = (await call('POST', '/rest/v2/comments', { project_id: ids['project'], content: 'Golden project comment' })).id;
    const done = (await call('POST', '/rest/v2/tasks', { content: 'Golden done', project_id: ids['project'] })).id;
    expect((await http(system.url, 'POST', `/rest/v2/tasks/${done}/close`, { token: account.token })).status).toBe(204);
  });

  /** Every object kind a dialect writes, read through that dialect's own endpoints. */
  async function shapes(prefix: string, paged: boolean): Promise<Record<string, string[]>> {
    const list = async (path: string): Promise<Json[]> => {
      const body = await call('GET', `${prefix}${path}`);
      return paged ? (body.results as Json[]) : (body as Json[]);
    };
    // REST v1 sends integer ids; its paths take the same digits.
    const tasks = [await call('GET', `${prefix}/tasks/${ids['task']}`), await call('GET', `${prefix}/tasks/${ids['subtask']}`)];
    const projects = await list('/projects');
    const comments = [await call('GET', `${prefix}/comments/${ids['comment']}`), await call('GET', `${prefix}/comments/${ids['projectComment']}`)];
    const result = {
      ...shapeOf('task', tasks),
      ...shapeOf('project', projects),
      ...shapeOf('section', [await call('GET', `${prefix}/sections/${ids['section']}`)]),
      ...shapeOf('label', [await call('GET', `${prefix}/labels/${ids['label']}`)]),
      ...shapeOf('comment', comments),
      ...shapeOf('collaborator', await list(`/projects/${ids['project']}/collaborators`)),
    };
    if (!paged) return result;
    const page = await call('GET', `${prefix}/tasks?limit=1`);
    const since = new Date(Date.now() - 86_400_000).toISOString().slice(0, 19);
    const until = new Date(Date.now() + 86_400_000).toISOString().slice(0, 19);
    const completed = await call('GET', `${prefix}/tasks/completed/by_completion_date?since=${since}&until=${until}`);
    const stats = await call('GET', `${prefix}/tasks/completed/stats`);
    return {
      ...result,
      page_envelope: Object.keys(page).sort(),
      completed_page_envelope: Object.keys(completed).sort(),
      ...shapeOf('completed_task', completed.items as Json[]),
      ...shapeOf('user', [await call('GET', `${prefix}/user`)]),
      ...shapeOf('completed_stats', [stats]),
      ...shapeOf('completed_stats.days_items', stats.days_items as Json[]),
      ...shapeOf('completed_stats.week_items', stats.week_items as Json[]),
      ...shapeOf('project_full', [await call('GET', `${prefix}/projects/${ids['project']}/full`)]),
      ...shapeOf('id_mapping', await call('GET', `${prefix}/id_mappings/tasks/${ids['task']}`)),
    };
  }

  it.each([
    ['rest-v1', '/rest/v1', false],
    ['rest-v2', '/rest/v2', false],
    ['rest-api-v1', '/api/v1', true],
  ] as const)('%s objects keep their golden key sets', async (dialect, prefix, paged) => {
    const found = await shapes(prefix, paged);
    const file = join(__dirname, 'golden', `${dialect}.keys.json`);
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(file, `${JSON.stringify(found, null, 2)}\n`);
    expect(existsSync(file)).toBe(true);
    expect(found).toEqual(JSON.parse(readFileSync(file, 'utf8')));
  });
});
