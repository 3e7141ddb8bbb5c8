import { openApiDocument } from '@doable/contracts-rest';
import { http, observeHttp, validateOpenApi } from '@doable/shared-testing';
import { documentedOperation, openApiMismatch } from './support/openapi-check';
import { startObservingProxy } from './support/observing-proxy';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/**
 * The OpenAPI description end to end: `/openapi.json` through the gateway validates as OpenAPI
 * 3.1, `/docs` renders it, and every REST v2 and api/v1 operation meets its schema on a real
 * response (the check is support/openapi-check.ts, on for every e2e spec).
 */

/** Workspace invitations and membership changes need a second member's flow: workspaces.e2e-spec.ts covers them. */
const NOT_EXERCISED_HERE = new Set([
  'apiV1WorkspacesInvitationsAccept',
  'apiV1WorkspacesInvitationsReject',
  'apiV1WorkspacesInvitationsDelete',
  'apiV1WorkspacesJoin',
  'apiV1WorkspacesUsersUpdate',
  'apiV1WorkspacesUsersRemove',
  'apiV1ProjectsJoin',
]);

describe.each(MODES)('OpenAPI (%s)', (mode) => {
  const { system, account } = useSystem(mode);
  const met = new Set<string>();
  let stop: () => void;
  beforeAll(() => {
    stop = observeHttp((exchange) => {
      const operation = documentedOperation(exchange.method, exchange.url.pathname);
      if (operation && exchange.status < 300) met.add(operation.operationId);
    });
  });
  afterAll(() => stop());

  const call = async (method: string, path: string, json?: unknown) => {
    const response = await http(system.url, method, path, { token: account.token, ...(json === undefined ? {} : { json }) });
    expect({ method, path, status: response.status < 300 }).toEqual({ method, path, status: true });
    return response.body;
  };

  it('serves /openapi.json without a token, cacheable, valid OpenAPI 3.1, the same document the code generates', async () => {
    const served = await http(system.url, 'GET', '/openapi.json');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^application\/json/);
    expect(served.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(served.body).toEqual(openApiDocument({ serverUrl: '/' }));
    expect(validateOpenApi(served.body)).toEqual({ valid: true, version: '3.1' });
  });

  it('renders /docs as a self-contained page of the operations', async () => {
    const page = await http(system.url, 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.body).toContain('id="restV2TasksCreate"');
    expect(page.body).not.toMatch(/<script/i);
  });

  it.each(['/rest/v2', '/api/v1'])('%s: every operation answers a valid request as its schema says', async (prefix) => {
    const api = prefix === '/api/v1';
    const project = await call('POST', `${prefix}/projects`, { name: `OpenAPI ${prefix}`, color: 'red', is_favorite: true });
    await call('GET', `${prefix}/projects`);
    await call('GET', `${prefix}/projects/${project.id}`);
    await call('POST', `${prefix}/projects/${project.id}`, { name: 'Renamed', view_style: 'board' });
    await call('GET', `${prefix}/projects/${project.id}/collaborators`);
    // Doable's own (api/v1 only): the project's open invitations, to those who may invite there.
    if (api) await call('GET', `${prefix}/projects/${project.id}/invitations`);
    const section = await call('POST', `${prefix}/sections`, { name: 'Now', project_id: project.id, order: 1 });
    await call('GET', `${prefix}/sections?project_id=${project.id}`);
    await call('GET', `${prefix}/sections/${section.id}`);
    await call('POST', `${prefix}/sections/${section.id}`, { name: 'Later' });
    const label = await call('POST', `${prefix}/labels`, { name: `errand${api ? 'api' : 'v2'}`, color: 'green', order: 2 });
    await call('GET', `${prefix}/labels`);
    await call('GET', `${prefix}/labels/${label.id}`);
    await call('POST', `${prefix}/labels/${label.id}`, { is_favorite: true });
    const task = await call('POST', `${prefix}/tasks`, {
      content: 'Documented',
      description: 'all fields',
      project_id: project.id,
      section_id: section.id,
      labels: [label.name, 'shared-only'],
      priority: 4,
      due_string: 'tomorrow at 10:00',
      duration: 30,
      duration_unit: 'minute',
      deadline_date: '2031-05-01',
    });
    const child = await call('POST', `${prefix}/tasks`, { content: 'Child', parent_id: task.id, due_date: '2031-01-01' });
    await call('GET', `${prefix}/tasks`);
    await call('GET', `${prefix}/tasks?project_id=${project.id}`);
    await call('GET', `${prefix}/tasks/${task.id}`);
    await call('POST', `${prefix}/tasks/${task.id}`, { content: 'Documented again', due_string: 'every monday' });
    await call('POST', `${prefix}/tasks/${child.id}/close`);
    await call('POST', `${prefix}/tasks/${child.id}/reopen`);
    await call('GET', `${prefix}/labels/shared`);
    await call('POST', `${prefix}/labels/shared/rename`, { name: 'shared-only', new_name: 'shared-renamed' });
    await call('POST', `${prefix}/labels/shared/remove`, { name: 'shared-renamed' });
    const comment = await call('POST', `${prefix}/comments`, { task_id: task.id, content: 'see file', attachment: { file_url: 'https://example.com/a.pdf', file_name: 'a.pdf', file_type: 'application/pdf', resource_type: 'file' } });
    await call('POST', `${prefix}/comments`, { project_id: project.id, content: 'on the project' });
    await call('GET', `${prefix}/comments?task_id=${task.id}`);
    await call('GET', `${prefix}/comments?project_id=${project.id}`);
    await call('GET', `${prefix}/comments/${comment.id}`);
    await call('POST', `${prefix}/comments/${comment.id}`, { content: 'see the file' });

    if (api) {
      await call('GET', `/api/v1/tasks/filter?query=${encodeURIComponent('p1 | today')}`);
      await call('POST', `/api/v1/tasks/${child.id}/move`, { project_id: project.id });
      await call('GET', '/api/v1/projects/search?query=Ren');
      await call('GET', '/api/v1/sections/search?query=Lat');
      await call('GET', '/api/v1/labels/search?query=err');
      await call('GET', '/api/v1/projects/permissions');
      await call('GET', `/api/v1/projects/${project.id}/full`);
      await call('POST', `/api/v1/sections/${section.id}/archive`);
      await call('GET', `/api/v1/sections/archived?project_id=${project.id}`);
      await call('POST', `/api/v1/sections/${section.id}/unarchive`);
      await call('POST', `/api/v1/projects/${project.id}/archive`);
      await call('GET', '/api/v1/projects/archived');
      await call('GET', '/api/v1/projects/archived/count');
      await call('POST', `/api/v1/projects/${project.id}/unarchive`);
      await call('GET', '/api/v1/user');
      await call('GET', '/api/v1/tasks/completed/stats');
      await call('GET', `/api/v1/id_mappings/tasks/${task.id},${child.id}`);

      const workspace = await call('POST', '/api/v1/workspaces', { name: 'Documented team', description: 'for the schema' });
      await call('GET', '/api/v1/workspaces');
      await call('GET', `/api/v1/workspaces/${workspace.id}`);
      await call('POST', `/api/v1/workspaces/${workspace.id}`, { description: 'renamed' });
      await call('GET', `/api/v1/workspaces/users?workspace_id=${workspace.id}`);
      await call('GET', `/api/v1/workspaces/plan_details?workspace_id=${workspace.id}`);
      await call('POST', `/api/v1/workspaces/${workspace.id}/users/invite`, { email_list: ['someone@example.com'], role: 'MEMBER' });
      await call('GET', `/api/v1/workspaces/invitations?workspace_id=${workspace.id}`);
      await call('GET', `/api/v1/workspaces/invitations/all?workspace_id=${workspace.id}`);
      const folder = await call('POST', '/api/v1/folders', { workspace_id: workspace.id, name: 'Engineering' });
      await call('GET', `/api/v1/folders?workspace_id=${workspace.id}`);
      await call('GET', `/api/v1/folders/${folder.id}`);
      await call('POST', `/api/v1/folders/${folder.id}`, { name: 'Platform' });
      await call('POST', '/api/v1/projects/move_to_workspace', { project_id: project.id, workspace_id: workspace.id });
      await call('GET', `/api/v1/workspaces/${workspace.id}/projects/active`);
      await call('GET', `/api/v1/workspaces/${workspace.id}/projects/archived`);
      await call('POST', '/api/v1/projects/move_to_personal', { project_id: project.id });
      await call('DELETE', `/api/v1/folders/${folder.id}`);
      await call('DELETE', `/api/v1/workspaces/${workspace.id}`);
    }

    await call('DELETE', `${prefix}/comments/${comment.id}`);
    await call('DELETE', `${prefix}/tasks/${task.id}`);
    await call('DELETE', `${prefix}/labels/${label.id}`);
    await call('DELETE', `${prefix}/sections/${section.id}`);
    await call('DELETE', `${prefix}/projects/${project.id}`);
  });

  it('error bodies match the Error schema too (the check would throw otherwise)', async () => {
    expect((await http(system.url, 'POST', '/rest/v2/tasks', { token: account.token, json: { content: 42 } })).status).toBe(400);
    expect((await http(system.url, 'GET', '/api/v1/tasks/1', { token: 'not-a-token' })).status).toBe(401);
    expect((await http(system.url, 'GET', '/api/v1/tasks?limit=900', { token: account.token })).status).toBe(400);
  });

  it('the check refuses an answer that does not match, and leaves routes that are not REST alone', () => {
    const exchange = (method: string, path: string, status: number, body: unknown) => ({ method, url: new URL(path, system.url), status, contentType: 'application/json', body });
    expect(openApiMismatch(exchange('GET', '/rest/v2/tasks/1', 200, { id: 1 }))).toMatch(/^restV2TasksGet \(GET \/rest\/v2\/tasks\/1\) answered 200 with a body its schema refuses/);
    expect(openApiMismatch(exchange('POST', '/api/v1/tasks/1/close', 204, { done: true }))).toMatch(/answered 204 with a body$/);
    expect(openApiMismatch(exchange('POST', '/api/v1/tasks/1/close', 201, undefined))).toMatch(/answered 201, which the document does not list/);
    expect(openApiMismatch(exchange('GET', '/api/v1/labels', 404, { error: 'gone' }))).toMatch(/answered 404 with a body its schema refuses/);
    expect(openApiMismatch(exchange('POST', '/api/v1/tasks/quick', 200, { anything: true }))).toBeUndefined();
    expect(openApiMismatch(exchange('POST', '/rest/v1/tasks', 200, { anything: true }))).toBeUndefined();
  });

  it("the client libraries' exchanges (through runClient's proxy) reach the check too, and a refusal is kept for the run", async () => {
    const proxy = await startObservingProxy(system.url);
    const seen: string[] = [];
    const stopSeeing = observeHttp((exchange) => {
      seen.push(`${exchange.method} ${exchange.url.pathname} ${exchange.status}`);
      if (exchange.url.pathname === '/api/v1/labels') throw new Error('refused by this test');
    });
    try {
      const user = await fetch(`${proxy.url}/api/v1/user`, { headers: { authorization: `Bearer ${account.token}` } });
      expect(user.status).toBe(200);
      expect(((await user.json()) as { id: string }).id).toBe(account.userId);
      expect((await fetch(`${proxy.url}/api/v1/labels`, { headers: { authorization: `Bearer ${account.token}` } })).status).toBe(200);
    } finally {
      stopSeeing();
      await proxy.close();
    }
    expect(seen).toEqual(['GET /api/v1/user 200', 'GET /api/v1/labels 200']);
    expect(proxy.failures).toEqual(['refused by this test']);
  });

  it('met every documented operation on a real response', () => {
    const documented = Object.values(openApiDocument({ serverUrl: '/' })['paths'] as Record<string, Record<string, { operationId: string }>>).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    expect(documented.filter((id) => !met.has(id) && !NOT_EXERCISED_HERE.has(id))).toEqual([]);
  });
});
