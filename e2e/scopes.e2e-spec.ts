import type { Scope } from '@doable/contracts-common';
import { http } from '@doable/shared-testing';
import sharp from 'sharp';
import { MODES } from './support/system-view';
import { useSystem } from './support/use-system';

/**
 * The scope matrix at the edges: every interface that exists, each against the scopes that allow
 * and refuse its kinds of action. A row is [action, scopes of the token (or the personal token),
 * allowed?]. Later interfaces add their rows here. Each sync command against every scope is
 * proved against the engine (libs/services/sync/src/access-policy/scope-matrix.integration-spec.ts);
 * here the sync paths keep a sample of them (read, add, delete, project delete, credentials), so
 * what is proved there is shown to be what the edge applies.
 *
 * The rules (sync-interface §5.4, libs/sync/engine/src/scopes.ts): reads need data:read
 * or data:read_write; adding a task (also quick add) task:add or data:read_write; deleting tasks,
 * labels (and their occurrences) and filters data:delete; deleting projects project:delete;
 * every other write data:read_write. A personal token may do everything.
 */
type Action =
  | 'sync.read'
  | 'sync.item_add'
  | 'sync.item_delete'
  | 'sync.project_delete'
  | 'sync.user_update_name'
  | 'sync.user_update_password'
  | 'rest.collaborators'
  | 'rest.project_invitations'
  | 'rest.workspaces'
  | 'rest.workspace_add'
  | 'sync_v8.read'
  | 'sync_v8.item_add'
  | 'sync_v8.item_delete'
  | 'sync_v7.read'
  | 'sync_v7.item_add_flat'
  | 'sync_v7.item_update_flat'
  | 'sync_v6.read'
  | 'quick.v9'
  | 'quick.api_v1'
  | 'completed.v9'
  | 'completed.api_v1'
  | 'activity.v9'
  | 'activity.api_v1'
  | 'archived.v9'
  | 'archive_items.v9'
  | 'stats.v9'
  | 'templates.export_v9'
  | 'templates.url_api_v1'
  | 'templates.import_v9'
  | 'templates.create_api_v1'
  | 'user.api_v1'
  | 'rest_v1.read'
  | 'rest_v1.task_add'
  | 'rest_v1.task_delete'
  | 'rest.read'
  | 'rest.task_add'
  | 'rest.task_update'
  | 'rest.task_delete'
  | 'rest.project_add'
  | 'rest.project_delete'
  | 'rest.label_delete'
  | 'rest.comment_add'
  | 'first_generation.read'
  | 'first_generation.add_item'
  | 'first_generation.complete_items'
  | 'first_generation.delete_items'
  | 'uploads.add_v1'
  | 'avatar.set_api_v1'
  | 'notification_settings.v9'
  | 'notification_settings.api_v1'
  | 'avatar.remove_v9'
  | 'uploads.add_v7'
  | 'uploads.get_v9'
  | 'uploads.list_v1'
  | 'uploads.delete_v1'
  | 'mcp.add_tasks'
  | 'mcp.find_tasks'
  | 'mcp.delete_task';

const PERSONAL = 'personal token';
type Grant = Scope[] | typeof PERSONAL;

const MATRIX: Array<[Action, Grant, boolean]> = [
  ['sync.read', ['task:add'], false],
  ['sync.read', ['data:read'], true],
  ['sync.read', ['data:read_write'], true],
  ['sync.read', ['data:delete'], false],
  ['sync.item_add', ['task:add'], true],
  ['sync.item_add', ['data:read'], false],
  ['sync.item_add', ['data:read_write'], true],
  ['sync.item_delete', ['data:read_write'], false],
  ['sync.item_delete', ['data:delete'], true],
  ['sync.project_delete', ['data:read_write', 'data:delete'], false],
  ['sync.project_delete', ['project:delete'], true],
  ['sync.user_update_name', ['data:read'], false],
  ['sync.user_update_name', ['data:read_write'], true],
  // Credentials are the personal token's alone, whatever the app's scopes.
  ['sync.user_update_password', ['data:read_write'], false],
  ['sync.user_update_password', ['data:read_write', 'data:delete', 'project:delete'], false],
  // Listing collaborators is a read.
  ['rest.collaborators', ['task:add'], false],
  ['rest.collaborators', ['data:read'], true],
  // So is listing a project's open invitations (Doable's own endpoint).
  ['rest.project_invitations', ['task:add'], false],
  ['rest.project_invitations', ['data:read'], true],
  // The workspace list is a read, adding one a write.
  ['rest.workspaces', ['task:add'], false],
  ['rest.workspaces', ['data:read'], true],
  ['rest.workspace_add', ['data:read'], false],
  ['rest.workspace_add', ['data:read_write'], true],
  // Sync v8 runs through the same engine: the same scopes, whatever shape the arguments came in.
  ['sync_v8.read', ['task:add'], false],
  ['sync_v8.read', ['data:read'], true],
  ['sync_v8.item_add', ['task:add'], true],
  ['sync_v8.item_add', ['data:read'], false],
  ['sync_v8.item_delete', ['data:read_write'], false],
  ['sync_v8.item_delete', ['data:delete'], true],
  // v7 and v6: the same checks, on their own paths (a v7 add or update by indent is a flat-place command).
  ['sync_v7.read', ['task:add'], false],
  ['sync_v7.read', ['data:read'], true],
  ['sync_v7.item_add_flat', ['task:add'], true],
  ['sync_v7.item_add_flat', ['data:read'], false],
  ['sync_v7.item_update_flat', ['data:read'], false],
  ['sync_v7.item_update_flat', ['data:read_write'], true],
  ['sync_v6.read', ['task:add'], false],
  ['sync_v6.read', ['data:read'], true],
  ['quick.v9', ['task:add'], true],
  ['quick.v9', ['data:read'], false],
  ['quick.v9', ['data:read_write'], true],
  ['quick.api_v1', ['task:add'], true],
  ['quick.api_v1', ['data:delete'], false],
  ['completed.v9', ['task:add'], false],
  ['completed.v9', ['data:read'], true],
  ['completed.api_v1', ['task:add'], false],
  ['completed.api_v1', ['data:read_write'], true],
  ['activity.v9', ['task:add'], false],
  ['activity.v9', ['data:read'], true],
  ['activity.api_v1', ['data:delete'], false],
  ['activity.api_v1', ['data:read'], true],
  ['archived.v9', ['task:add'], false],
  ['archived.v9', ['data:read'], true],
  // Template exports, archive/items and the stats are reads; a template import is a write (its
  // sections, tasks and comments), data:read_write, not task:add.
  ['archive_items.v9', ['task:add'], false],
  ['archive_items.v9', ['data:read'], true],
  ['stats.v9', ['task:add'], false],
  ['stats.v9', ['data:read'], true],
  ['templates.export_v9', ['task:add'], false],
  ['templates.export_v9', ['data:read'], true],
  ['templates.url_api_v1', ['task:add'], false],
  ['templates.url_api_v1', ['data:read'], true],
  ['templates.import_v9', ['data:read'], false],
  ['templates.import_v9', ['task:add'], false],
  ['templates.import_v9', ['data:read_write'], true],
  ['templates.create_api_v1', ['data:read'], false],
  ['templates.create_api_v1', ['data:read_write'], true],
  ['user.api_v1', ['task:add'], false],
  ['user.api_v1', ['data:read'], true],
  ['rest_v1.read', ['task:add'], false],
  ['rest_v1.read', ['data:read'], true],
  ['rest_v1.task_add', ['task:add'], true],
  ['rest_v1.task_add', ['data:read'], false],
  ['rest_v1.task_add', ['data:read_write'], true],
  ['rest_v1.task_delete', ['data:read_write'], false],
  ['rest_v1.task_delete', ['data:delete'], true],
  ['rest.read', ['task:add'], false],
  ['rest.read', ['data:read'], true],
  ['rest.read', ['data:read_write'], true],
  ['rest.read', ['data:delete'], false],
  ['rest.task_add', ['task:add'], true],
  ['rest.task_add', ['data:read'], false],
  ['rest.task_add', ['data:read_write'], true],
  ['rest.task_update', ['task:add'], false],
  ['rest.task_update', ['data:read_write'], true],
  ['rest.task_delete', ['data:read_write'], false],
  ['rest.task_delete', ['data:delete'], true],
  ['rest.project_add', ['task:add'], false],
  ['rest.project_add', ['data:read_write'], true],
  ['rest.project_delete', ['data:read_write', 'data:delete'], false],
  ['rest.project_delete', ['project:delete'], true],
  ['rest.label_delete', ['data:read_write'], false],
  ['rest.label_delete', ['data:delete'], true],
  ['rest.comment_add', ['data:read'], false],
  ['rest.comment_add', ['data:read_write'], true],
  // The first generation's calls: its clients knew no scopes; the same rules hold per call.
  ['first_generation.read', ['task:add'], false],
  ['first_generation.read', ['data:read'], true],
  ['first_generation.add_item', ['task:add'], true],
  ['first_generation.add_item', ['data:read'], false],
  ['first_generation.complete_items', ['task:add'], false],
  ['first_generation.complete_items', ['data:read_write'], true],
  ['first_generation.delete_items', ['data:read_write'], false],
  ['first_generation.delete_items', ['data:delete'], true],
  // Uploads: adding is a write, listing a read, deleting needs data:delete (as deleting tasks).
  ['uploads.add_v1', ['data:read'], false],
  ['uploads.add_v1', ['task:add'], false],
  ['uploads.add_v1', ['data:read_write'], true],
  // The avatar (issue #32): setting and removing it change the account, so data:read_write.
  ['avatar.set_api_v1', ['data:read'], false],
  ['avatar.set_api_v1', ['task:add'], false],
  ['avatar.set_api_v1', ['data:read_write'], true],
  ['avatar.remove_v9', ['data:read'], false],
  ['avatar.remove_v9', ['data:read_write'], true],
  // update_notification_setting (issue #33): a setting of the caller's own is a write.
  ['notification_settings.v9', ['data:read'], false],
  ['notification_settings.v9', ['task:add'], false],
  ['notification_settings.v9', ['data:read_write'], true],
  ['notification_settings.api_v1', ['data:read'], false],
  ['notification_settings.api_v1', ['data:read_write'], true],
  ['uploads.add_v7', ['data:read'], false],
  ['uploads.add_v7', ['data:read_write'], true],
  ['uploads.get_v9', ['task:add'], false],
  ['uploads.get_v9', ['data:read'], true],
  ['uploads.list_v1', ['data:delete'], false],
  ['uploads.list_v1', ['data:read_write'], true],
  ['uploads.delete_v1', ['data:read_write'], false],
  ['uploads.delete_v1', ['data:delete'], true],
  // The assistant server's tools run the same operations: the same rules, refused as tool errors.
  ['mcp.add_tasks', ['data:read'], false],
  ['mcp.add_tasks', ['task:add'], true],
  ['mcp.add_tasks', ['data:read_write'], true],
  ['mcp.find_tasks', ['task:add'], false],
  ['mcp.find_tasks', ['data:read'], true],
  ['mcp.delete_task', ['data:read_write'], false],
  ['mcp.delete_task', ['data:delete'], true],
  // A personal token has full access: a sample of each kind of action.
  ['sync.read', PERSONAL, true],
  ['sync.item_delete', PERSONAL, true],
  ['sync.project_delete', PERSONAL, true],
  ['completed.api_v1', PERSONAL, true],
  ['rest_v1.task_delete', PERSONAL, true],
  ['rest.label_delete', PERSONAL, true],
  ['first_generation.delete_items', PERSONAL, true],
  ['uploads.add_v1', PERSONAL, true],
  ['uploads.delete_v1', PERSONAL, true],
  ['mcp.delete_task', PERSONAL, true],
];

describe.each(MODES)('scope matrix (%s)', (mode) => {
  const { system, account } = useSystem(mode);
  let counter = 0;

  /** Creates what an action needs with the personal token, then tries the action with the scoped one. */
  async function attempt(action: Action, token: string): Promise<boolean> {
    const personal = (commands: object[]) => http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { commands } });
    const withScoped = async (command: { type: string; args: Record<string, unknown> }, path = '/api/v1/sync') => {
      const uuid = `${mode}-scope-${++counter}`;
      const response = await http(system.url, 'POST', path, { token, json: { commands: [{ ...command, uuid }] } });
      expect(response.status).toBe(200);
      const status = response.body.sync_status[uuid];
      if (status !== 'ok') expect(status).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
      return status === 'ok';
    };
    const newTask = async () => {
      const made = await personal([{ type: 'item_add', uuid: `${mode}-setup-${++counter}`, temp_id: 't', args: { content: 'fixture' } }]);
      return made.body.temp_id_mapping['t'] as string;
    };
    /** A REST call with the scoped token: 2xx is allowed, anything else must be a coded 403. */
    const rest = async (method: string, path: string, json?: unknown) => {
      const response = await http(system.url, method, path, { token, json });
      if (response.status >= 300) expect(response.body).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
      return response.status < 300;
    };
    const newProject = async () => {
      const made = await personal([{ type: 'project_add', uuid: `${mode}-setup-${++counter}`, temp_id: 'p', args: { name: 'fixture' } }]);
      return made.body.temp_id_mapping['p'] as string;
    };
    const newLabel = async () => {
      const made = await personal([{ type: 'label_add', uuid: `${mode}-setup-${++counter}`, temp_id: 'l', args: { name: `fixture-${counter}` } }]);
      return made.body.temp_id_mapping['l'] as string;
    };
    /** A first-generation call with the token in the query: 200 is allowed, anything else must be its coded 403. */
    const firstGeneration = async (call: string, params: Record<string, string>) => {
      const response = await http(system.url, 'GET', `/API/${call}?${new URLSearchParams({ ...params, token }).toString()}`);
      if (response.status !== 200) expect(response).toMatchObject({ status: 403, body: 'ERROR_FORBIDDEN' });
      return response.status === 200;
    };
    /** A tool call over /mcp (stateless: no session to open first): a result, or a FORBIDDEN tool error. */
    const tool = async (name: string, args: Record<string, unknown>) => {
      const response = await http(system.url, 'POST', '/mcp', {
        token,
        headers: { accept: 'application/json, text/event-stream' },
        json: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
      });
      expect(response.status).toBe(200);
      const result = response.body.result;
      if (result.isError) expect(result.content[0].text).toMatch(/^FORBIDDEN: /);
      return result.isError !== true;
    };
    switch (action) {
      case 'mcp.add_tasks':
        return tool('add-tasks', { tasks: [{ content: 'scoped through MCP' }] });
      case 'mcp.find_tasks':
        return tool('find-tasks', {});
      case 'mcp.delete_task':
        return tool('delete-object', { type: 'task', id: await newTask() });
      case 'rest.workspaces':
        return rest('GET', '/api/v1/workspaces');
      case 'rest.workspace_add':
        return rest('POST', '/api/v1/workspaces', { name: 'scoped' });
      case 'rest.project_invitations':
        return rest('GET', `/api/v1/projects/${await newProject()}/invitations`);
      case 'rest.collaborators': {
        const made = await personal([{ type: 'project_add', uuid: `${mode}-setup-${++counter}`, temp_id: 'p', args: { name: 'fixture' } }]);
        return rest('GET', `/rest/v2/projects/${made.body.temp_id_mapping['p']}/collaborators`);
      }
      case 'sync.user_update_name':
        return withScoped({ type: 'user_update', args: { full_name: 'Test User' } });
      case 'sync.user_update_password':
        return withScoped({ type: 'user_update', args: { password: 'an app-chosen passphrase', email: `taken-over-${counter}@example.test` } });
      case 'quick.v9':
        return rest('POST', '/sync/v9/quick/add', { text: 'scoped quick add tomorrow' });
      case 'quick.api_v1':
        return rest('POST', '/api/v1/tasks/quick', { text: 'scoped quick add tomorrow' });
      case 'completed.v9':
        return rest('GET', '/sync/v9/completed/get_all');
      case 'completed.api_v1':
        return rest('GET', '/api/v1/tasks/completed/by_completion_date?since=2030-01-01T00:00:00Z&until=2030-02-01T00:00:00Z');
      case 'activity.v9':
        return rest('GET', '/sync/v9/activity/get');
      case 'activity.api_v1':
        return rest('GET', '/api/v1/activities');
      case 'archived.v9':
        return rest('GET', '/sync/v9/projects/get_archived');
      case 'archive_items.v9':
        return rest('GET', `/sync/v9/archive/items?project_id=${await newProject()}`);
      case 'stats.v9':
        return rest('GET', '/sync/v9/completed/get_stats');
      case 'templates.export_v9':
        return rest('GET', `/sync/v9/templates/export_as_file?project_id=${await newProject()}`);
      case 'templates.url_api_v1':
        return rest('GET', `/api/v1/templates/url?project_id=${await newProject()}`);
      case 'templates.import_v9': {
        const response = await http(system.url, 'POST', '/sync/v9/templates/import_into_project', { token, form: { project_id: await newProject(), file: 'TYPE,CONTENT\ntask,scoped\n' } });
        if (response.status >= 300) expect(response.body).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
        return response.status < 300;
      }
      case 'templates.create_api_v1':
        return rest('POST', '/api/v1/templates/create_project_from_file', { name: 'scoped template', file: 'TYPE,CONTENT\ntask,scoped\n' });
      case 'user.api_v1':
        return rest('GET', '/api/v1/user');
      case 'rest_v1.read':
        return rest('GET', '/rest/v1/tasks');
      case 'rest_v1.task_add':
        return rest('POST', '/rest/v1/tasks', { content: 'scoped v1' });
      case 'rest_v1.task_delete':
        return rest('DELETE', `/rest/v1/tasks/${await newTask()}`);
      case 'rest.read':
        return rest('GET', '/rest/v2/tasks');
      case 'rest.task_add':
        return rest('POST', '/rest/v2/tasks', { content: 'scoped' });
      case 'rest.task_update':
        return rest('POST', `/rest/v2/tasks/${await newTask()}`, { content: 'changed' });
      case 'rest.task_delete':
        return rest('DELETE', `/rest/v2/tasks/${await newTask()}`);
      case 'rest.project_add':
        return rest('POST', '/api/v1/projects', { name: 'scoped' });
      case 'rest.project_delete': {
        const made = await personal([{ type: 'project_add', uuid: `${mode}-setup-${++counter}`, temp_id: 'p', args: { name: 'fixture' } }]);
        return rest('DELETE', `/api/v1/projects/${made.body.temp_id_mapping['p']}`);
      }
      case 'rest.label_delete':
        return rest('DELETE', `/rest/v2/labels/${await newLabel()}`);
      case 'rest.comment_add':
        return rest('POST', '/api/v1/comments', { task_id: await newTask(), content: 'scoped comment' });
      case 'sync.read': {
        const response = await http(system.url, 'POST', '/api/v1/sync', { token, json: { sync_token: '*', resource_types: ['items'] } });
        if (response.status !== 200) expect(response.body).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
        return response.status === 200;
      }
      case 'sync.item_add':
        return withScoped({ type: 'item_add', args: { content: 'scoped' } });
      case 'sync_v8.read': {
        const response = await http(system.url, 'POST', '/sync/v8/sync', { token, json: { sync_token: '*', resource_types: ['items'] } });
        if (response.status !== 200) expect(response.body).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
        return response.status === 200;
      }
      case 'sync_v8.item_add':
        return withScoped({ type: 'item_add', args: { content: 'scoped v8', priority: 2 } }, '/sync/v8/sync');
      case 'sync_v8.item_delete':
        return withScoped({ type: 'item_delete', args: { id: Number(await newTask()) } }, '/sync/v8/sync');
      case 'sync_v7.read':
      case 'sync_v6.read': {
        const [path, read] = action === 'sync_v7.read' ? ['/API/v7/sync', { sync_token: '*' }] : ['/API/v6/sync', { seq_no: 0 }];
        const response = await http(system.url, 'POST', path, { token, json: { ...read, resource_types: ['items'] } });
        if (response.status !== 200) expect(response.body).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
        return response.status === 200;
      }
      case 'sync_v7.item_add_flat':
        return withScoped({ type: 'item_add', args: { content: 'scoped v7', indent: 1, item_order: 1 } }, '/API/v7/sync');
      case 'sync_v7.item_update_flat':
        return withScoped({ type: 'item_update', args: { id: Number(await newTask()), indent: 1 } }, '/API/v7/sync');
      case 'sync.item_delete':
        return withScoped({ type: 'item_delete', args: { id: await newTask() } });
      case 'sync.project_delete': {
        const made = await personal([{ type: 'project_add', uuid: `${mode}-setup-${++counter}`, temp_id: 'p', args: { name: 'fixture' } }]);
        return withScoped({ type: 'project_delete', args: { id: made.body.temp_id_mapping['p'] } });
      }
      case 'first_generation.read':
        return firstGeneration('getProjects', {});
      case 'first_generation.add_item':
        return firstGeneration('addItem', { content: 'scoped first generation' });
      case 'first_generation.complete_items':
        return firstGeneration('completeItems', { ids: JSON.stringify([Number(await newTask())]) });
      case 'first_generation.delete_items':
        return firstGeneration('deleteItems', { ids: JSON.stringify([Number(await newTask())]) });
      case 'uploads.add_v1':
      case 'uploads.add_v7': {
        const form = new FormData();
        form.append('file', new Blob(['scoped upload']), 'scoped.txt');
        const path = action === 'uploads.add_v1' ? '/api/v1/uploads' : '/API/v7/uploads/add';
        const response = await fetch(new URL(path, system.url), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
        const body = (await response.json()) as any;
        if (response.status >= 300) expect(body).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
        return response.status < 300;
      }
      case 'avatar.set_api_v1': {
        const form = new FormData();
        form.append('image', new Blob([await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366cc' } }).png().toBuffer()], { type: 'image/png' }), 'me.png');
        const response = await fetch(new URL('/api/v1/update_avatar', system.url), { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
        const body = (await response.json()) as any;
        if (response.status >= 300) expect(body).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
        return response.status < 300;
      }
      case 'avatar.remove_v9':
        return rest('DELETE', '/sync/v9/update_avatar');
      case 'notification_settings.v9':
        return rest('POST', '/sync/v9/notification_settings/update', { notification_type: 'note_added', service: 'email', dont_notify: false });
      case 'notification_settings.api_v1':
        return rest('PUT', '/api/v1/notification_setting', { notification_type: 'note_added', service: 'email', dont_notify: true });
      case 'uploads.get_v9':
        return rest('POST', '/sync/v9/uploads/get', {});
      case 'uploads.list_v1':
        return rest('GET', '/api/v1/uploads');
      case 'uploads.delete_v1': {
        const form = new FormData();
        form.append('file', new Blob(['to delete']), 'delete-me.txt');
        const made = await fetch(new URL('/api/v1/uploads', system.url), { method: 'POST', headers: { authorization: `Bearer ${account.token}` }, body: form });
        const { file_url: fileUrl } = (await made.json()) as { file_url: string };
        return rest('DELETE', `/api/v1/uploads?file_url=${encodeURIComponent(fileUrl)}`);
      }
    }
  }

  it.each(MATRIX)('%s with %j -> allowed: %s', async (action, grant, allowed) => {
    const token = grant === PERSONAL ? account.token : await system.createScopedToken(account.userId, grant);
    await expect(attempt(action, token)).resolves.toBe(allowed);
  });

  it('answers a task:add token the REST v1 task it created (with its label ids), and reads nothing else', async () => {
    const token = await system.createScopedToken(account.userId, ['task:add']);
    const label = await http(system.url, 'POST', '/api/v1/sync', {
      token: account.token,
      json: { commands: [{ type: 'label_add', uuid: `${mode}-v1-label`, temp_id: 'l', args: { name: 'v1label' } }] },
    });
    const labelId = Number(label.body.temp_id_mapping['l']);
    const made = await http(system.url, 'POST', '/api/v1/sync', {
      token,
      json: { commands: [{ type: 'item_add', uuid: `${mode}-v1-labelled`, temp_id: 't', args: { content: 'labelled by name', labels: ['V1Label'] } }] },
    });
    expect(made.body.sync_status[`${mode}-v1-labelled`]).toBe('ok');
    const created = await http(system.url, 'POST', '/rest/v1/tasks', { token, json: { content: 'answered whole' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ content: 'answered whole', label_ids: [], completed: false, id: expect.any(Number) });
    const read = await http(system.url, 'GET', `/rest/v1/tasks/${made.body.temp_id_mapping['t']}`, { token: account.token });
    expect(read.body.label_ids).toEqual([labelId]);
    expect((await http(system.url, 'GET', `/rest/v1/tasks/${created.body.id}`, { token })).status).toBe(403);
    expect((await http(system.url, 'GET', '/rest/v1/labels', { token })).status).toBe(403);
  });

  it('refuses a read before running any command of the request', async () => {
    const token = await system.createScopedToken(account.userId, ['task:add']);
    const response = await http(system.url, 'POST', '/api/v1/sync', {
      token,
      json: { sync_token: '*', resource_types: ['items'], commands: [{ type: 'item_add', uuid: `${mode}-half`, temp_id: 'h', args: { content: 'must not exist' } }] },
    });
    expect(response.status).toBe(403);
    const items = await http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { sync_token: '*', resource_types: ['items'] } });
    expect((items.body.items as Array<{ content: string }>).map((item) => item.content)).not.toContain('must not exist');
  });

  it('does not remember a forbidden command: the same uuid runs with a token that may', async () => {
    const readOnly = await system.createScopedToken(account.userId, ['data:read']);
    const command = { type: 'project_add', uuid: `${mode}-later`, args: { name: 'Allowed later' } };
    const refused = await http(system.url, 'POST', '/api/v1/sync', { token: readOnly, json: { commands: [command] } });
    expect(refused.body.sync_status[command.uuid]).toMatchObject({ error_tag: 'FORBIDDEN' });
    const allowed = await http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { commands: [command] } });
    expect(allowed.body.sync_status[command.uuid]).toBe('ok');
  });
});
