import { http } from '@doable/shared-testing';
import { syncSession } from './support/sync-session';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/**
 * The first-generation interface (public-api-facts §1.8) over the one domain: `/API/*` calls
 * with the token in the query or the form, JSON or JSONP answers in the old shapes, and the
 * `TodoistSync` get/sync calls with timestamp duplicate protection and `$` temp ids. What one
 * generation writes, every other reads.
 */
describe.each(MODES)('first generation (%s)', (mode) => {
  const { system, account } = useSystem(mode);

  const { sync, run } = syncSession(() => system, () => account, 'fg');

  /** A call with every parameter (the token included) in the query string, as the old clients sent them. */
  const get = async (call: string, params: Record<string, string> = {}, token = account.token) => {
    const query = new URLSearchParams({ ...params, token });
    return http(system.url, 'GET', `/API/${call}?${query.toString()}`);
  };
  /** A call with every parameter (the token included) in a form body. */
  const post = async (path: string, form: Record<string, string>, token = account.token, field = 'token') => http(system.url, 'POST', path, { form: { ...form, [field]: token } });

  const inbox = async (): Promise<number> => {
    const projects = await get('getProjects');
    expect(projects.status).toBe(200);
    return projects.body.find((project: any) => project.name === 'Inbox').id;
  };

  it('adds, lists, updates, completes and deletes a task', async () => {
    const projectId = await inbox();
    const added = await get('addItem', { project_id: String(projectId), content: 'Buy milk', date_string: 'tomorrow', priority: '4' });
    expect(added.status).toBe(200);
    expect(added.headers.get('content-type')).toMatch(/^application\/json/);
    expect(added.headers.get('x-content-type-options')).toBe('nosniff');
    expect(added.body).toEqual({
      id: expect.any(Number),
      user_id: Number(account.userId),
      project_id: projectId,
      content: 'Buy milk',
      date_string: 'tomorrow',
      due_date: expect.stringMatching(/^[A-Z][a-z]{2} \d{2} [A-Z][a-z]{2} \d{4} 23:59:59 \+0000$/),
      priority: 4,
      item_order: expect.any(Number),
      indent: 1,
      collapsed: 0,
      in_history: 0,
      checked: 0,
      faded: 0,
    });
    const id = added.body.id as number;

    const open = await get('getUncompletedItems', { project_id: String(projectId) });
    expect(open.status).toBe(200);
    expect(open.body.map((item: any) => item.id)).toContain(id);

    const updated = await post('/API/updateItem', { id: String(id), content: 'Buy oat milk', date_string: '', priority: '1' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, content: 'Buy oat milk', date_string: '', due_date: null, priority: 1 });

    const completed = await get('completeItems', { ids: JSON.stringify([id]) });
    expect(completed).toMatchObject({ status: 200, body: 'ok' });
    expect((await get('getUncompletedItems', { project_id: String(projectId) })).body.map((item: any) => item.id)).not.toContain(id);
    const history = await get('getCompletedItems', { project_id: String(projectId), offset: '0' });
    expect(history.status).toBe(200);
    expect(history.body).toEqual([expect.objectContaining({ id, content: 'Buy oat milk', checked: 1, in_history: 1 })]);

    const deleted = await get('deleteItems', { ids: JSON.stringify([id]), project_id: String(projectId) });
    expect(deleted).toMatchObject({ status: 200, body: 'ok' });
    expect((await get('getItemsById', { ids: JSON.stringify([id]) })).body).toEqual([]);
    expect((await get('getCompletedItems', { project_id: String(projectId) })).body).toEqual([]);
  });

  it('answers the old error strings', async () => {
    expect(await get('getUncompletedItems', { project_id: '9999999999' })).toMatchObject({ status: 400, body: 'ERROR_PROJECT_NOT_FOUND' });
    expect(await get('getProject', {})).toMatchObject({ status: 400, body: 'ERROR_PROJECT_NOT_FOUND' });
    expect(await get('updateItem', { id: '9999999999', content: 'x' })).toMatchObject({ status: 400, body: 'ERROR_ITEM_NOT_FOUND' });
    expect(await get('addItem', { content: 'Dated', date_string: 'the twelfth of never' })).toMatchObject({ status: 400, body: 'ERROR_WRONG_DATE_SYNTAX' });
    expect(await get('completeItems', {})).toMatchObject({ status: 400, body: 'ERROR_ARGUMENT_MISSING' });
    expect(await get('getItemsById', { ids: 'not json' })).toMatchObject({ status: 400, body: 'ERROR_INVALID_ARGUMENT' });
  });

  it('logs in with a password: a new token of a built-in app, listed among authorized apps; a wrong password is LOGIN_ERROR', async () => {
    const password = 'correct horse battery staple 1';
    const member = await system.createAccount({ password });
    expect(await post('/API/login', { email: member.email, password: 'wrong password 123' }, 'unused', 'unused')).toMatchObject({ status: 401, body: 'LOGIN_ERROR' });
    expect(await http(system.url, 'GET', '/API/login')).toMatchObject({ status: 400, body: 'LOGIN_ERROR' });

    const login = await http(system.url, 'GET', `/API/login?${new URLSearchParams({ email: member.email, password }).toString()}`);
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ id: Number(member.userId), email: member.email, full_name: 'Test User', timezone: 'UTC', api_token: expect.stringMatching(/^[0-9a-f]{40}$/), token: login.body.api_token });
    expect(login.body.api_token).not.toBe(member.token);
    const projects = await get('getProjects', {}, login.body.api_token);
    expect(projects.status).toBe(200);
    expect(projects.body).toEqual([expect.objectContaining({ name: 'Inbox' })]);
    const apps = await system.sql<{ name: string; scopes: string[] }>(
      `SELECT a.name, t.scopes FROM auth.access_tokens t JOIN auth.oauth_apps a ON a.id = t.app_id WHERE t.user_id = $1 AND t.revoked_at IS NULL`,
      [member.userId],
    );
    expect(apps).toEqual([{ name: 'First-generation login', scopes: expect.arrayContaining(['data:read_write', 'data:delete', 'project:delete', 'task:add']) }]);
  });

  it('answers query per search: overdue and p1', async () => {
    const { mapping } = await run(
      { type: 'item_add', temp_id: 'late', args: { content: 'Late one', due: { date: '2001-02-03' } } },
      { type: 'item_add', temp_id: 'urgent', args: { content: 'Urgent one', priority: 4 } },
    );
    const answer = await get('query', { queries: JSON.stringify(['overdue', 'p1']) });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { query: 'overdue', type: 'overdue', data: expect.arrayContaining([expect.objectContaining({ id: Number(mapping['late']), due_date: 'Sat 03 Feb 2001 23:59:59 +0000' })]) },
      { query: 'p1', type: 'priority', data: expect.arrayContaining([expect.objectContaining({ id: Number(mapping['urgent']), priority: 4 })]) },
    ]);
    expect(answer.body[0].data.map((item: any) => item.id)).not.toContain(Number(mapping['urgent']));

    // The help text's own example form: a day written with an unpadded month and a time.
    const onDay = await get('query', { queries: JSON.stringify(['2001-2-3T10:13']) });
    expect(onDay.body).toEqual([{ query: '2001-2-3T10:13', type: 'date', data: [expect.objectContaining({ id: Number(mapping['late']) })] }]);
    expect(await get('query', { queries: JSON.stringify(['p1']), as_count: '1' })).toMatchObject({ status: 200, body: [{ query: 'p1', type: 'priority', data: expect.any(Number) }] });
  });

  it('wraps answers in a good callback and refuses a bad one', async () => {
    const wrapped = await get('getProjects', { callback: 'app.todo_1.cb' });
    expect(wrapped.status).toBe(200);
    expect(wrapped.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(wrapped.headers.get('x-content-type-options')).toBe('nosniff');
    const text = wrapped.body as string;
    const json = /^\/\*\*\/app\.todo_1\.cb\((.*)\);$/s.exec(text);
    expect(json).not.toBeNull();
    expect(JSON.parse(json![1])).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Inbox' })]));

    for (const bad of ['alert(1)//', 'a-b', '1abc', 'a.b.c.d.e.f', `${'a'.repeat(65)}`]) {
      const refused = await get('getProjects', { callback: bad });
      expect(refused).toMatchObject({ status: 400, body: 'ERROR_INVALID_CALLBACK' });
      expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('runs a retried sync once (timestamps) and maps $ temp ids to integers', async () => {
    const itemsToSync = JSON.stringify([
      { type: 'project_add', temp_id: '$1', timestamp: 1411653993012, args: { name: 'Legacy project', color: 1 } },
      { type: 'item_add', temp_id: '$2', timestamp: 1411653993013, args: { content: 'Legacy task', project_id: '$1', date_string: 'today' } },
    ]);
    const first = await post('/TodoistSync/v5.3/sync', { items_to_sync: itemsToSync }, account.token, 'api_token');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ $1: expect.any(Number), $2: expect.any(Number) });
    const again = await post('/TodoistSync/v5.3/sync', { items_to_sync: itemsToSync }, account.token, 'api_token');
    expect(again.body).toEqual(first.body);

    const tasks = await get('getUncompletedItems', { project_id: String(first.body.$1) });
    expect(tasks.body).toEqual([expect.objectContaining({ id: first.body.$2, content: 'Legacy task', date_string: 'today' })]);
    const projects = (await get('getProjects')).body.filter((project: any) => project.name === 'Legacy project');
    expect(projects).toEqual([expect.objectContaining({ id: first.body.$1, color: 1, cache_count: 1 })]);

    const both = await post('/TodoistSync/v5.3/syncAndGetUpdated', { seq_no: '0', items_to_sync: JSON.stringify([{ type: 'item_add', temp_id: '$3', timestamp: 1411653993014, args: { content: 'Third', project_id: first.body.$1 } }]) }, account.token, 'api_token');
    expect(both.status).toBe(200);
    expect(both.body.TempIdMapping).toEqual({ $3: expect.any(Number) });
    expect(both.body.Items.map((item: any) => item.id)).toEqual(expect.arrayContaining([first.body.$2, both.body.TempIdMapping.$3]));
    expect(both.body).toMatchObject({ UserId: Number(account.userId), seq_no: expect.any(Number) });
    expect(both.body.User).not.toHaveProperty('token');
  });

  it('answers get from seq_no with what changed since, deletions flagged', async () => {
    const full = await post('/TodoistSync/v5.3/get', { seq_no: '0' }, account.token, 'api_token');
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({ UserId: Number(account.userId), User: { id: Number(account.userId), email: account.email }, Projects: expect.any(Array), Items: expect.any(Array) });
    const seq = full.body.seq_no as number;

    const { mapping } = await run({ type: 'item_add', temp_id: 'later', args: { content: 'Changed after seq_no' } });
    const since = await http(system.url, 'GET', `/TodoistSync/v5.3/get?${new URLSearchParams({ seq_no: String(seq), api_token: account.token }).toString()}`);
    expect(since.status).toBe(200);
    expect(since.body.Items).toEqual([expect.objectContaining({ id: Number(mapping['later']), content: 'Changed after seq_no', is_deleted: 0 })]);
    expect(since.body).not.toHaveProperty('User');
    expect(since.body.seq_no).toBeGreaterThan(seq);

    await run({ type: 'item_delete', args: { id: mapping['later'] } });
    const gone = await http(system.url, 'GET', `/TodoistSync/v5.3/get?${new URLSearchParams({ seq_no: String(since.body.seq_no), api_token: account.token }).toString()}`);
    expect(gone.body.Items).toEqual([expect.objectContaining({ id: Number(mapping['later']), is_deleted: 1 })]);
  });

  it('places rows by item_order and indent in the domain\'s tree, both ways', async () => {
    const { mapping } = await run({ type: 'project_add', temp_id: 'tree', args: { name: 'Flat list' } });
    const projectId = mapping['tree'];
    const parent = await get('addItem', { project_id: projectId, content: 'Parent' });
    const child = await get('addItem', { project_id: projectId, content: 'Child', indent: '2' });
    const first = await get('addItem', { project_id: projectId, content: 'First', item_order: '1', indent: '1' });
    expect([parent.status, child.status, first.status]).toEqual([200, 200, 200]);
    const rows = async () => (await get('getUncompletedItems', { project_id: projectId })).body.map((item: any) => [item.content, item.item_order, item.indent]);
    expect(await rows()).toEqual([
      ['First', 1, 1],
      ['Parent', 2, 1],
      ['Child', 3, 2],
    ]);
    const tree = async () => {
      const items = (await sync({ sync_token: '*', resource_types: ['items'] })).items.filter((item: any) => item.project_id === projectId);
      return Object.fromEntries(items.map((item: any) => [item.content, item.parent_id === null ? null : items.find((other: any) => other.id === item.parent_id).content]));
    };
    expect(await tree()).toEqual({ First: null, Parent: null, Child: 'Parent' });

    // v5.3's item_update_orders_indents: the child outdented to the top and moved first.
    const moved = await post(
      '/TodoistSync/v5.3/sync',
      { items_to_sync: JSON.stringify([{ type: 'item_update_orders_indents', timestamp: 1411654466656, args: { ids_to_orders_indents: { [child.body.id]: [1, 1], [first.body.id]: [2, 2] } } }]) },
      account.token,
      'api_token',
    );
    expect(moved.status).toBe(200);
    expect(await rows()).toEqual([
      ['Child', 1, 1],
      ['First', 2, 2],
      ['Parent', 3, 1],
    ]);
    expect(await tree()).toEqual({ Child: null, First: 'Child', Parent: null });
  });

  it('shows changes made through /api/v1/sync, and the Sync API shows its changes', async () => {
    const projectId = await inbox();
    const { mapping } = await run({ type: 'item_add', temp_id: 'modern', args: { content: 'Written by v1' } });
    expect((await get('getUncompletedItems', { project_id: String(projectId) })).body).toEqual(expect.arrayContaining([expect.objectContaining({ id: Number(mapping['modern']), content: 'Written by v1' })]));

    const added = await get('addItem', { content: 'Written by the first generation' });
    expect(added.status).toBe(200);
    const full = await sync({ sync_token: '*', resource_types: ['items'] });
    expect(full.items).toEqual(expect.arrayContaining([expect.objectContaining({ id: String(added.body.id), content: 'Written by the first generation' })]));
  });

  it('takes ?token= here and still refuses ?access_token= and ?token= on /api/v1/sync', async () => {
    expect((await get('getProjects')).status).toBe(200);
    expect((await http(system.url, 'GET', `/API/getProjects?access_token=${account.token}`)).status).toBe(401);
    expect((await http(system.url, 'POST', `/api/v1/sync?access_token=${account.token}`, { form: { sync_token: '*' } })).status).toBe(401);
    expect((await http(system.url, 'POST', `/api/v1/sync?token=${account.token}`, { form: { sync_token: '*' } })).status).toBe(401);
  });

  it('lets a task:add-only token add a task but not read projects', async () => {
    const token = await system.createScopedToken(account.userId, ['task:add']);
    const added = await get('addItem', { content: 'Added by an app' }, token);
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ content: 'Added by an app' });
    expect(await get('getProjects', {}, token)).toMatchObject({ status: 403, body: 'ERROR_FORBIDDEN' });
    expect(await get('completeItems', { ids: JSON.stringify([added.body.id]) }, token)).toMatchObject({ status: 403, body: 'ERROR_FORBIDDEN' });

    // The sync calls: commands under the same scopes; a combined call that must read is refused before it writes.
    const items = (content: string) => JSON.stringify([{ type: 'item_add', temp_id: '$9', timestamp: Date.now(), args: { content } }]);
    expect(await post('/TodoistSync/v5.3/sync', { items_to_sync: items('Synced by an app') }, token, 'api_token')).toMatchObject({ status: 200, body: { $9: expect.any(Number) } });
    expect(await post('/TodoistSync/v5.3/syncAndGetUpdated', { items_to_sync: items('Never written') }, token, 'api_token')).toMatchObject({ status: 403, body: 'ERROR_FORBIDDEN' });
    const contents = (await sync({ sync_token: '*', resource_types: ['items'] })).items.map((item: any) => item.content);
    expect(contents).toEqual(expect.arrayContaining(['Added by an app', 'Synced by an app']));
    expect(contents).not.toContain('Never written');
  });
});
