import { http } from '@doable/shared-testing';
import { shareWith } from './support/sharing';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/**
 * The REST surfaces (REST v1, REST v2, api/v1) end to end: each dialect's shapes, list
 * parameters and their precedence, pagination, idempotent retries, scopes and every error path.
 * The official clients' own validation of these answers is in rest-clients.e2e-spec.ts.
 */
describe.each(MODES)('REST surfaces (%s)', (mode) => {
  const { system, accounts: [account, stranger] } = useSystem(mode, { accounts: 2 });
  let requestCounter = 0;

  const call = (method: string, path: string, options: { json?: unknown; token?: string; headers?: Record<string, string>; raw?: string } = {}) =>
    http(system.url, method, path, { token: account.token, ...options });
  const post = (path: string, json: unknown, token = account.token) => call('POST', path, { json, token });
  const get = (path: string, token = account.token) => call('GET', path, { token });
  const uniqueRequestId = () => `${mode}-req-${++requestCounter}`;

  async function newProject(name: string, token = account.token): Promise<string> {
    const created = await post('/rest/v2/projects', { name }, token);
    expect(created.status).toBe(200);
    return created.body.id as string;
  }

  async function newTask(body: Record<string, unknown>, token = account.token): Promise<Record<string, any>> {
    const created = await post('/rest/v2/tasks', body, token);
    expect(created.status).toBe(200);
    return created.body;
  }

  describe('dialect shapes', () => {
    let projectId: string;
    let sectionId: string;
    let taskId: string;

    beforeAll(async () => {
      projectId = await newProject('Shapes');
      sectionId = (await post('/rest/v2/sections', { name: 'Now', project_id: projectId })).body.id;
      await post('/rest/v2/labels', { name: 'errand', color: 'red', order: 3 });
      const task = await newTask({
        content: 'Shape me',
        description: 'all the fields',
        project_id: projectId,
        section_id: sectionId,
        labels: ['errand'],
        priority: 3,
        due_string: 'tomorrow at 10:00',
        duration: 30,
        duration_unit: 'minute',
        deadline_date: '2031-05-01',
      });
      taskId = task.id;
    });

    it('REST v2 writes string ids, is_ booleans and nulls for what is absent', async () => {
      const { status, body } = await get(`/rest/v2/tasks/${taskId}`);
      expect(status).toBe(200);
      expect(Object.keys(body).sort()).toEqual(
        [
          'assignee_id',
          'assigner_id',
          'comment_count',
          'content',
          'created_at',
          'creator_id',
          'deadline',
          'description',
          'due',
          'duration',
          'id',
          'is_completed',
          'labels',
          'order',
          'parent_id',
          'priority',
          'project_id',
          'section_id',
          'url',
        ].sort(),
      );
      expect(body).toMatchObject({
        id: taskId,
        project_id: projectId,
        section_id: sectionId,
        parent_id: null,
        is_completed: false,
        labels: ['errand'],
        priority: 3,
        duration: { amount: 30, unit: 'minute' },
        deadline: { date: '2031-05-01' },
        due: { string: 'tomorrow at 10:00', is_recurring: false, timezone: null },
        creator_id: account.userId,
        assignee_id: null,
      });
      expect(body.due.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(body.due.datetime).toMatch(/^\d{4}-\d{2}-\d{2}T10:00:00$/);
    });

    it('REST v1 writes integer ids and colours, section_id and parent_id 0 for none, and leaves other absent keys out', async () => {
      const inbox = await newTask({ content: 'Plain v1' });
      const { status, body } = await get(`/rest/v1/tasks/${inbox.id}`);
      expect(status).toBe(200);
      expect(body).toMatchObject({ id: Number(inbox.id), section_id: 0, parent_id: 0, completed: false, label_ids: [], priority: 1 });
      expect(typeof body.project_id).toBe('number');
      for (const key of ['parent', 'due', 'assignee']) expect(body).not.toHaveProperty(key);
      const child = await newTask({ content: 'Plain v1 child', parent_id: inbox.id });
      expect((await get(`/rest/v1/tasks/${child.id}`)).body).toMatchObject({ parent_id: Number(inbox.id), parent: Number(inbox.id) });
      const labelled = (await get(`/rest/v1/tasks/${taskId}`)).body;
      const labels = (await get('/rest/v1/labels')).body as Array<{ id: number; name: string; color: number; order: number; favorite: boolean }>;
      const errand = labels.find((label) => label.name === 'errand')!;
      expect(errand).toEqual({ id: expect.any(Number), name: 'errand', color: 31, order: 3, favorite: false });
      expect(labelled.label_ids).toEqual([errand.id]);
      expect(labelled.section_id).toBe(Number(sectionId));
      const projects = (await get('/rest/v1/projects')).body as Array<Record<string, unknown>>;
      const inboxProject = projects.find((project) => project['inbox_project'] === true)!;
      expect(inboxProject).toMatchObject({ id: expect.any(Number), color: expect.any(Number), shared: false, favorite: false, sync_id: 0 });
      expect(inboxProject).not.toHaveProperty('parent_id');
      const shapes = projects.find((project) => project['name'] === 'Shapes')!;
      expect(shapes).not.toHaveProperty('inbox_project');
    });

    it('REST v1 gives a shared project one non-zero sync_id in every member account', async () => {
      const [owner, member] = [await system.createAccount(), await system.createAccount()];
      const projectId = await newProject('Shared v1', owner.token);
      const before = (await get(`/rest/v1/projects/${projectId}`, owner.token)).body;
      expect(before).toMatchObject({ shared: false, sync_id: 0 });
      await shareWith(system, owner, member, projectId);
      const seenBy = await Promise.all([owner, member].map(async (someone) => (await get(`/rest/v1/projects/${projectId}`, someone.token)).body));
      for (const project of seenBy) expect(project).toMatchObject({ shared: true, sync_id: Number(projectId) });
    });

    it('api/v1 answers the sync shapes with every key present and lists as pages', async () => {
      const { status, body } = await get(`/api/v1/tasks?project_id=${projectId}`);
      expect(status).toBe(200);
      expect(body.next_cursor).toBeNull();
      const [task] = body.results;
      expect(Object.keys(task).sort()).toEqual(
        [
          'added_at',
          'added_by_uid',
          'assigned_by_uid',
          'checked',
          'child_order',
          'completed_at',
          'content',
          'day_order',
          'deadline',
          'description',
          'due',
          'duration',
          'id',
          'is_collapsed',
          'is_deleted',
          'labels',
          'note_count',
          'parent_id',
          'priority',
          'project_id',
          'responsible_uid',
          'section_id',
          'updated_at',
          'user_id',
        ].sort(),
      );
      const project = (await get(`/api/v1/projects/${projectId}`)).body;
      expect(project).not.toHaveProperty('workspace_id');
      expect(project).toMatchObject({ id: projectId, name: 'Shapes', is_archived: false, is_shared: false, can_assign_tasks: false });
      const section = (await get(`/api/v1/sections/${sectionId}`)).body;
      expect(section).toMatchObject({ id: sectionId, project_id: projectId, name: 'Now', section_order: expect.any(Number), description: null });
    });

    it('counts comments on tasks and projects', async () => {
      await post('/rest/v2/comments', { task_id: taskId, content: 'one' });
      await post('/rest/v2/comments', { task_id: taskId, content: 'two' });
      await post('/rest/v2/comments', { project_id: projectId, content: 'on the project' });
      expect((await get(`/rest/v2/tasks/${taskId}`)).body.comment_count).toBe(2);
      expect((await get(`/api/v1/tasks/${taskId}`)).body.note_count).toBe(2);
      expect((await get(`/rest/v2/projects/${projectId}`)).body.comment_count).toBe(1);
      const comments = (await get(`/rest/v2/comments?task_id=${taskId}`)).body as Array<Record<string, unknown>>;
      expect(comments.map((comment) => comment['content'])).toEqual(['one', 'two']);
      expect(comments[0]).toMatchObject({ task_id: taskId, project_id: null, attachment: null });
      const onProject = (await get(`/rest/v1/comments?project_id=${projectId}`)).body as Array<Record<string, unknown>>;
      expect(onProject).toEqual([{ id: expect.any(Number), content: 'on the project', posted: expect.any(String), project_id: Number(projectId) }]);
      const apiComments = (await get(`/api/v1/comments?task_id=${taskId}`)).body;
      expect(apiComments.results[0]).toHaveProperty('item_id', taskId);
      expect(apiComments.results[0]).not.toHaveProperty('project_id');
    });
  });

  describe('task lists', () => {
    let work: string;
    let home: string;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      [work, home] = await Promise.all([newProject('Lists work'), newProject('Lists home')]);
      ids['report'] = (await newTask({ content: 'report', project_id: work, labels: ['deep'], priority: 4, due_string: 'today' })).id;
      ids['slides'] = (await newTask({ content: 'slides', project_id: work, due_string: 'tomorrow' })).id;
      ids['garden'] = (await newTask({ content: 'garden', project_id: home, labels: ['deep'] })).id;
      ids['sub'] = (await newTask({ content: 'sub', parent_id: ids['report'] })).id;
    });

    const contents = (body: Array<{ content: string }>) => body.map((task) => task.content).sort();

    it('filters by project, section, label and parent', async () => {
      expect(contents((await get(`/rest/v2/tasks?project_id=${work}`)).body)).toEqual(['report', 'slides', 'sub']);
      expect(contents((await get('/rest/v2/tasks?label=Deep')).body)).toEqual(['garden', 'report']);
      expect(contents((await get(`/api/v1/tasks?parent_id=${ids['report']}`)).body.results)).toEqual(['sub']);
    });

    it('gives filter precedence over ids, and ids over project (REST v2)', async () => {
      expect(contents((await get(`/rest/v2/tasks?filter=${encodeURIComponent('#Lists work & p1')}&ids=${ids['garden']}`)).body)).toEqual(['report']);
      expect(contents((await get(`/rest/v2/tasks?ids=${ids['garden']}&project_id=${work}`)).body)).toEqual(['garden']);
    });

    it.each([
      ['comma list', (a: string, b: string) => `ids=${a},${b}`],
      ['bracket list', (a: string, b: string) => `ids[]=${a}&ids[]=${b}`],
      ['JSON list', (a: string, b: string) => `ids=${encodeURIComponent(JSON.stringify([a, b]))}`],
    ])('accepts ids as a %s', async (_name, query) => {
      const { status, body } = await get(`/rest/v2/tasks?${query(ids['report'], ids['garden'])}`);
      expect(status).toBe(200);
      expect(contents(body)).toEqual(['garden', 'report']);
    });

    it('answers /api/v1/tasks/filter with the filter language, and a bad query with a coded 400', async () => {
      const today = await get(`/api/v1/tasks/filter?query=${encodeURIComponent('#Lists work & (today | tomorrow)')}`);
      expect(today.status).toBe(200);
      expect(contents(today.body.results)).toEqual(['report', 'slides']);
      const bad = await get(`/api/v1/tasks/filter?query=${encodeURIComponent('(today')}`);
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE', error_extra: { argument: 'filter' } });
      expect((await get('/api/v1/tasks/filter')).status).toBe(400);
    });

    it('walks api/v1 pages with cursors bound to the user and the parameters', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: { status: number; body: any } = await get(`/api/v1/tasks?project_id=${work}&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.status).toBe(200);
        expect(page.body.results).toHaveLength(1);
        seen.push(page.body.results[0].content);
        cursor = page.body.next_cursor;
        pages++;
      } while (cursor && pages < 10);
      expect(seen.sort()).toEqual(['report', 'slides', 'sub']);

      const first = (await get(`/api/v1/tasks?project_id=${work}&limit=1`)).body.next_cursor as string;
      const otherUser = await get(`/api/v1/tasks?project_id=${work}&limit=1&cursor=${first}`, stranger.token);
      expect(otherUser.status).toBe(400);
      expect(otherUser.body.error_extra).toMatchObject({ argument: 'cursor' });
      expect((await get(`/api/v1/tasks?project_id=${home}&limit=1&cursor=${first}`)).status).toBe(400);
      expect((await get('/api/v1/tasks?cursor=not-a-cursor')).status).toBe(400);
    });

    it('refuses limits outside 1..200', async () => {
      const tooMany = await get('/api/v1/tasks?limit=201');
      expect(tooMany.status).toBe(400);
      expect(tooMany.body).toMatchObject({ error_code: 20, error_extra: { argument: 'limit' } });
      expect((await get('/api/v1/tasks?limit=0')).status).toBe(400);
      expect((await get('/api/v1/tasks?limit=many')).status).toBe(400);
    });
  });

  describe('writes', () => {
    it('answers updates with 204 on REST v1 and with the object on REST v2 and api/v1', async () => {
      const task = await newTask({ content: 'to edit' });
      const v1 = await call('POST', `/rest/v1/tasks/${task.id}`, { json: { content: 'edited in v1' } });
      expect(v1.status).toBe(204);
      const v2 = await post(`/rest/v2/tasks/${task.id}`, { content: 'edited in v2', due_string: 'no date' });
      expect(v2.status).toBe(200);
      expect(v2.body).toMatchObject({ id: task.id, content: 'edited in v2', due: null });
      const api = await post(`/api/v1/tasks/${task.id}`, { description: 'and api' });
      expect(api.body).toMatchObject({ id: task.id, content: 'edited in v2', description: 'and api' });
    });

    it('closes, reopens and deletes', async () => {
      const task = await newTask({ content: 'lifecycle' });
      expect((await post(`/rest/v2/tasks/${task.id}/close`, {})).status).toBe(204);
      expect((await get(`/api/v1/tasks/${task.id}`)).body.checked).toBe(true);
      expect((await post(`/rest/v2/tasks/${task.id}/reopen`, {})).status).toBe(204);
      expect((await get(`/api/v1/tasks/${task.id}`)).body.checked).toBe(false);
      expect((await call('DELETE', `/rest/v2/tasks/${task.id}`)).status).toBe(204);
      expect((await get(`/rest/v2/tasks/${task.id}`)).status).toBe(404);
    });

    it('moves a task to exactly one destination (api/v1)', async () => {
      const target = await newProject('Move target');
      const task = await newTask({ content: 'mover' });
      const moved = await post(`/api/v1/tasks/${task.id}/move`, { project_id: target });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ id: task.id, project_id: target });
      expect((await post(`/api/v1/tasks/${task.id}/move`, {})).status).toBe(400);
      expect((await post(`/api/v1/tasks/${task.id}/move`, { project_id: target, parent_id: task.id })).status).toBe(400);
    });

    it('archives, lists archived and unarchives projects, and searches with wildcards (api/v1)', async () => {
      const id = await newProject('Archive me');
      const archived = await post(`/api/v1/projects/${id}/archive`, {});
      expect(archived.body).toMatchObject({ id, is_archived: true });
      expect(((await get('/api/v1/projects/archived')).body.results as Array<{ id: string }>).map((project) => project.id)).toContain(id);
      expect(((await get('/api/v1/projects')).body.results as Array<{ id: string }>).map((project) => project.id)).not.toContain(id);
      expect((await post(`/api/v1/projects/${id}/unarchive`, {})).body).toMatchObject({ id, is_archived: false });
      const found = (await get(`/api/v1/projects/search?query=${encodeURIComponent('Archive*')}`)).body.results as Array<{ name: string }>;
      expect(found.map((project) => project.name)).toEqual(['Archive me']);
    });

    it('reports productivity: completions today, this week, streaks (api/v1), and the sync stats resource', async () => {
      const fresh = await system.createAccount();
      for (const content of ['done one', 'done two']) {
        const task = await newTask({ content }, fresh.token);
        expect((await post(`/api/v1/tasks/${task.id}/close`, {}, fresh.token)).status).toBe(204);
      }
      const { status, body } = await get('/api/v1/tasks/completed/stats', fresh.token);
      expect(status).toBe(200);
      expect(body).toMatchObject({ completed_count: 2, karma: 2, karma_trend: 'up', karma_last_update: 1, karma_graph_data: [], karma_update_reasons: [] });
      expect(body.days_items).toHaveLength(7);
      expect(body.days_items[0]).toMatchObject({ total_completed: 2, items: [{ id: expect.any(String), completed: 2 }] });
      expect(body.week_items).toHaveLength(4);
      expect(body.week_items[0].total_completed).toBe(2);
      expect(body.goals).toMatchObject({ daily_goal: 5, weekly_goal: 25, user_id: fresh.userId, vacation_mode: 0, karma_disabled: 0 });
      expect(body.goals.current_daily_streak).toEqual({ count: 0, start: expect.any(String), end: expect.any(String) });
      expect(Object.values(body.project_colors)).toEqual(['grey']);
      const sync = await post('/api/v1/sync', { sync_token: '*', resource_types: ['stats'] }, fresh.token);
      expect(sync.body.stats).toMatchObject({ completed_count: 2, days_items: [{ total_completed: 2 }], week_items: [{ total_completed: 2 }] });
    });

    it('lists archived sections (api/v1)', async () => {
      const project = await newProject('With archive');
      const section = (await post('/api/v1/sections', { name: 'Old', project_id: project })).body;
      expect((await post(`/api/v1/sections/${section.id}/archive`, {})).body).toMatchObject({ id: section.id, is_archived: true });
      expect(((await get(`/api/v1/sections/archived?project_id=${project}`)).body.results as Array<{ id: string }>).map((found) => found.id)).toEqual([section.id]);
      expect((await get(`/api/v1/sections?project_id=${project}`)).body.results).toEqual([]);
    });

    it('renames and removes shared labels (names on tasks), with omit_personal', async () => {
      await post('/rest/v2/labels', { name: 'personal-one' });
      await newTask({ content: 'tagged', labels: ['team-tag', 'personal-one'] });
      expect((await get('/rest/v2/labels/shared')).body).toEqual(expect.arrayContaining(['team-tag', 'personal-one']));
      expect((await get('/rest/v2/labels/shared?omit_personal=true')).body).not.toContain('personal-one');
      expect((await post('/rest/v2/labels/shared/rename', { name: 'team-tag', new_name: 'crew-tag' })).status).toBe(204);
      expect((await get('/rest/v2/labels/shared')).body).toContain('crew-tag');
      expect((await post('/rest/v2/labels/shared/remove', { name: 'crew-tag' })).status).toBe(204);
      expect((await get('/rest/v2/labels/shared')).body).not.toContain('crew-tag');
    });

    it('runs a retried request once: same X-Request-Id, same answer, one task', async () => {
      const requestId = uniqueRequestId();
      const project = await newProject(`Idempotent ${mode}`);
      const send = () => call('POST', '/rest/v2/tasks', { json: { content: 'exactly once', project_id: project }, headers: { 'x-request-id': requestId } });
      const [first, second] = await Promise.all([send(), send()]);
      const third = await send();
      expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
      expect(second.body.id).toBe(first.body.id);
      expect(third.body.id).toBe(first.body.id);
      expect((await get(`/rest/v2/tasks?project_id=${project}`)).body).toHaveLength(1);
    });

    it('refuses an X-Request-Id over 36 bytes', async () => {
      const response = await call('POST', '/rest/v2/tasks', { json: { content: 'x' }, headers: { 'x-request-id': 'x'.repeat(37) } });
      expect(response.status).toBe(400);
    });
  });

  describe('bad input and other users', () => {
    let theirTask: string;
    let theirProject: string;

    beforeAll(async () => {
      theirProject = await newProject('Not yours', stranger.token);
      theirTask = (await newTask({ content: 'private', project_id: theirProject }, stranger.token)).id;
    });

    it.each([
      ['malformed JSON', () => call('POST', '/rest/v2/tasks', { raw: '{"content":', headers: { 'content-type': 'application/json' } }), 400, 'INVALID_JSON'],
      ['a JSON array body', () => post('/rest/v2/tasks', [1, 2]), 400, 'BODY_NOT_OBJECT'],
      ['no content', () => post('/rest/v2/tasks', { description: 'no content' }), 400, 'ARGUMENT_MISSING'],
      ['a number as content', () => post('/rest/v2/tasks', { content: 42 }), 400, 'INVALID_ARGUMENT_VALUE'],
      ['priority out of range', () => post('/rest/v2/tasks', { content: 'x', priority: 9 }), 400, 'INVALID_ARGUMENT_VALUE'],
      ['two due fields', () => post('/rest/v2/tasks', { content: 'x', due_string: 'today', due_date: '2030-01-01' }), 400, 'INVALID_ARGUMENT_VALUE'],
      ['a malformed due_date', () => post('/rest/v2/tasks', { content: 'x', due_date: 'soon' }), 400, 'INVALID_ARGUMENT_VALUE'],
      ['duration without its unit', () => post('/rest/v2/tasks', { content: 'x', duration: 15 }), 400, 'INVALID_ARGUMENT_VALUE'],
      ['an unknown task', () => get('/rest/v2/tasks/6999999999'), 404, 'ITEM_NOT_FOUND'],
      ['a non-numeric task id', () => get('/rest/v2/tasks/abc'), 404, 'ITEM_NOT_FOUND'],
      ['a comment list without task or project', () => get('/rest/v2/comments'), 400, 'ARGUMENT_MISSING'],
      ['an unknown endpoint', () => get('/rest/v2/nothing-here'), 404, 'NOT_FOUND'],
    ] as const)('answers %s with a coded error', async (_name, send, status, tag) => {
      const response = await send();
      expect(response.status).toBe(status);
      expect(response.body).toMatchObject({ error_tag: tag, http_code: status });
    });

    it("treats another user's task and project as not found, on every verb", async () => {
      expect((await get(`/rest/v2/tasks/${theirTask}`)).status).toBe(404);
      expect((await get(`/rest/v1/tasks/${theirTask}`)).status).toBe(404);
      expect((await post(`/rest/v2/tasks/${theirTask}`, { content: 'mine now' })).status).toBe(404);
      expect((await post(`/rest/v2/tasks/${theirTask}/close`, {})).status).toBe(404);
      expect((await call('DELETE', `/rest/v2/tasks/${theirTask}`)).status).toBe(404);
      expect((await post('/rest/v2/tasks', { content: 'into theirs', project_id: theirProject })).status).toBe(404);
      expect((await get(`/rest/v2/projects/${theirProject}`)).status).toBe(404);
      expect((await get(`/rest/v2/projects/${theirProject}/collaborators`)).status).toBe(404);
      expect((await get(`/rest/v2/tasks?project_id=${theirProject}`)).body).toEqual([]);
      expect((await get(`/rest/v2/tasks/${theirTask}`, stranger.token)).body).toMatchObject({ content: 'private' });
    });

    it('answers 401 without a valid token', async () => {
      expect((await get('/rest/v2/tasks', 'f'.repeat(40))).status).toBe(401);
      expect((await http(system.url, 'GET', '/api/v1/projects')).status).toBe(401);
    });
  });

  describe("every endpoint's error paths", () => {
    const UNKNOWN = '9999999999';
    let task: string;
    let project: string;
    let section: string;

    beforeAll(async () => {
      project = await newProject('Errors');
      section = (await post('/rest/v2/sections', { name: 'Errors section', project_id: project })).body.id;
      task = (await newTask({ content: 'errors', project_id: project })).id;
      await post('/rest/v2/labels', { name: 'taken' });
    });

    type Case = [string, () => Promise<{ status: number; body: any }>, number, string];
    const cases = (): Case[] => [
      ['get an unknown project', () => get(`/rest/v2/projects/${UNKNOWN}`), 404, 'PROJECT_NOT_FOUND'],
      ['update an unknown project', () => post(`/rest/v2/projects/${UNKNOWN}`, { name: 'x' }), 404, 'PROJECT_NOT_FOUND'],
      ['delete an unknown project', () => call('DELETE', `/rest/v2/projects/${UNKNOWN}`), 404, 'PROJECT_NOT_FOUND'],
      ['create a project without a name', () => post('/rest/v2/projects', {}), 400, 'ARGUMENT_MISSING'],
      ['create a project with a number as name', () => post('/rest/v2/projects', { name: 5 }), 400, 'INVALID_ARGUMENT_VALUE'],
      ['create a project with an unknown colour', () => post('/rest/v2/projects', { name: 'x', color: 'plaid' }), 400, 'INVALID_ARGUMENT_VALUE'],
      ['list collaborators of an unknown project', () => get(`/rest/v2/projects/${UNKNOWN}/collaborators`), 404, 'PROJECT_NOT_FOUND'],
      ['archive an unknown project', () => post(`/api/v1/projects/${UNKNOWN}/archive`, {}), 404, 'PROJECT_NOT_FOUND'],
      ['unarchive an unknown project', () => post(`/api/v1/projects/${UNKNOWN}/unarchive`, {}), 404, 'PROJECT_NOT_FOUND'],
      ['search projects without a query', () => get('/api/v1/projects/search'), 400, 'ARGUMENT_MISSING'],
      ['get an unknown section', () => get(`/rest/v2/sections/${UNKNOWN}`), 404, 'SECTION_NOT_FOUND'],
      ['create a section without a project', () => post('/rest/v2/sections', { name: 'x' }), 400, 'ARGUMENT_MISSING'],
      ['create a section in an unknown project', () => post('/rest/v2/sections', { name: 'x', project_id: UNKNOWN }), 404, 'PROJECT_NOT_FOUND'],
      ['rename a section to nothing (REST v2)', () => post(`/rest/v2/sections/${section}`, {}), 400, 'ARGUMENT_MISSING'],
      ['update an unknown section', () => post(`/rest/v2/sections/${UNKNOWN}`, { name: 'y' }), 404, 'SECTION_NOT_FOUND'],
      ['delete an unknown section', () => call('DELETE', `/rest/v2/sections/${UNKNOWN}`), 404, 'SECTION_NOT_FOUND'],
      ['archive an unknown section', () => post(`/api/v1/sections/${UNKNOWN}/archive`, {}), 404, 'SECTION_NOT_FOUND'],
      ['search sections without a query', () => get('/api/v1/sections/search'), 400, 'ARGUMENT_MISSING'],
      ['close an unknown task', () => post(`/rest/v2/tasks/${UNKNOWN}/close`, {}), 404, 'ITEM_NOT_FOUND'],
      ['reopen an unknown task', () => post(`/rest/v2/tasks/${UNKNOWN}/reopen`, {}), 404, 'ITEM_NOT_FOUND'],
      ['move an unknown task', () => post(`/api/v1/tasks/${UNKNOWN}/move`, { project_id: project }), 404, 'ITEM_NOT_FOUND'],
      ['move a task to an unknown project', () => post(`/api/v1/tasks/${task}/move`, { project_id: UNKNOWN }), 404, 'PROJECT_NOT_FOUND'],
      ['create a task in an unknown section', () => post('/rest/v2/tasks', { content: 'x', section_id: UNKNOWN }), 404, 'SECTION_NOT_FOUND'],
      ['create a task under an unknown parent', () => post('/rest/v2/tasks', { content: 'x', parent_id: UNKNOWN }), 404, 'ITEM_NOT_FOUND'],
      ['create a task with labels as a string', () => post('/rest/v2/tasks', { content: 'x', labels: 'a,b' }), 400, 'INVALID_ARGUMENT_VALUE'],
      ['update a task with a bad due_datetime', () => post(`/rest/v2/tasks/${task}`, { due_datetime: 'next blue moon' }), 400, 'INVALID_ARGUMENT_VALUE'],
      ['filter with an unknown REST v1 label id', () => get(`/rest/v1/tasks?label_id=${UNKNOWN}`), 404, 'LABEL_NOT_FOUND'],
      ['create a REST v1 task with an unknown label id', () => post('/rest/v1/tasks', { content: 'x', label_ids: [Number(UNKNOWN)] }), 404, 'LABEL_NOT_FOUND'],
      ['get an unknown label', () => get(`/rest/v2/labels/${UNKNOWN}`), 404, 'LABEL_NOT_FOUND'],
      ['create a label without a name', () => post('/rest/v2/labels', {}), 400, 'ARGUMENT_MISSING'],
      ['create a label whose name is taken', () => post('/rest/v2/labels', { name: 'Taken' }), 400, 'LABEL_ALREADY_EXISTS'],
      ['update an unknown label', () => post(`/rest/v2/labels/${UNKNOWN}`, { name: 'x' }), 404, 'LABEL_NOT_FOUND'],
      ['delete an unknown label', () => call('DELETE', `/rest/v2/labels/${UNKNOWN}`), 404, 'LABEL_NOT_FOUND'],
      ['rename a shared label without the new name', () => post('/rest/v2/labels/shared/rename', { name: 'x' }), 400, 'ARGUMENT_MISSING'],
      ['remove a shared label without a name', () => post('/rest/v2/labels/shared/remove', {}), 400, 'ARGUMENT_MISSING'],
      ['search labels without a query', () => get('/api/v1/labels/search'), 400, 'ARGUMENT_MISSING'],
      ['get an unknown comment', () => get(`/rest/v2/comments/${UNKNOWN}`), 404, 'NOTE_NOT_FOUND'],
      ['comment on nothing', () => post('/rest/v2/comments', { content: 'x' }), 400, 'ARGUMENT_MISSING'],
      ['comment on an unknown task', () => post('/rest/v2/comments', { task_id: UNKNOWN, content: 'x' }), 404, 'ITEM_NOT_FOUND'],
      ['comment on a task and a project at once', () => post('/rest/v2/comments', { task_id: task, project_id: project, content: 'x' }), 400, 'INVALID_ARGUMENT_VALUE'],
      ['comment without content', () => post('/rest/v2/comments', { task_id: task }), 400, 'ARGUMENT_MISSING'],
      ['comment with a non-http attachment', () => post('/rest/v2/comments', { task_id: task, content: 'x', attachment: { file_url: 'ftp://x' } }), 400, 'INVALID_ARGUMENT_VALUE'],
      ['list comments of an unknown task', () => get(`/api/v1/comments?task_id=${UNKNOWN}`), 404, 'ITEM_NOT_FOUND'],
      ['update an unknown comment', () => post(`/rest/v2/comments/${UNKNOWN}`, { content: 'x' }), 404, 'NOTE_NOT_FOUND'],
      ['delete an unknown comment', () => call('DELETE', `/rest/v2/comments/${UNKNOWN}`), 404, 'NOTE_NOT_FOUND'],
      ['a method the endpoint does not have', () => call('PUT', '/rest/v2/tasks', { json: {} }), 405, 'METHOD_NOT_ALLOWED'],
    ];

    it('answers each with its status and tag', async () => {
      const seen: Array<[string, number, string]> = [];
      for (const [name, send] of cases()) {
        const response = await send();
        seen.push([name, response.status, response.body?.error_tag]);
      }
      expect(seen).toEqual(cases().map(([name, , status, tag]) => [name, status, tag]));
    });
  });

  describe('scopes', () => {
    it('lets task:add add a task and read back only that task', async () => {
      const token = await system.createScopedToken(account.userId, ['task:add']);
      const added = await post('/rest/v2/tasks', { content: 'added with task:add' }, token);
      expect(added.status).toBe(200);
      expect(added.body.content).toBe('added with task:add');
      expect((await get('/rest/v2/tasks', token)).status).toBe(403);
      expect((await get(`/rest/v2/tasks/${added.body.id}`, token)).status).toBe(403);
      expect((await post('/rest/v2/projects', { name: 'no' }, token)).status).toBe(403);
    });

    it('lets data:read read but not write, and needs data:delete to delete tasks', async () => {
      const reader = await system.createScopedToken(account.userId, ['data:read']);
      expect((await get('/api/v1/projects', reader)).status).toBe(200);
      expect((await post('/rest/v2/tasks', { content: 'nope' }, reader)).status).toBe(403);
      const task = await newTask({ content: 'delete me' });
      const writer = await system.createScopedToken(account.userId, ['data:read_write']);
      expect((await call('DELETE', `/rest/v2/tasks/${task.id}`, { token: writer })).status).toBe(403);
      const deleter = await system.createScopedToken(account.userId, ['data:delete']);
      expect((await call('DELETE', `/rest/v2/tasks/${task.id}`, { token: deleter })).status).toBe(204);
    });
  });
});
