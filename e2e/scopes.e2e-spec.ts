import type { Scope } from '@doable/contracts-common';
import { http } from '@doable/shared-testing';
import { type Account, MODES, startSystem, type SystemUnderTest } from './support/system-under-test';

/**
 * The scope matrix: every scope against a sample of every kind of action, on every interface
 * that exists. A row is [interface, action, scopes of the token, allowed?]. Later interfaces
 * (REST, uploads, backups) add their rows here.
 */
type Action =
  | 'sync.read'
  | 'sync.item_add'
  | 'sync.item_update'
  | 'sync.item_delete'
  | 'sync.project_add'
  | 'sync.project_delete'
  | 'sync.label_delete'
  | 'rest.read'
  | 'rest.task_add'
  | 'rest.task_update'
  | 'rest.task_delete'
  | 'rest.project_add'
  | 'rest.project_delete'
  | 'rest.label_delete'
  | 'rest.comment_add';

const MATRIX: Array<[Action, Scope[], boolean]> = [
  ['sync.read', ['task:add'], false],
  ['sync.read', ['data:read'], true],
  ['sync.read', ['data:read_write'], true],
  ['sync.read', ['data:delete'], false],
  ['sync.item_add', ['task:add'], true],
  ['sync.item_add', ['data:read'], false],
  ['sync.item_add', ['data:read_write'], true],
  ['sync.item_update', ['task:add'], false],
  ['sync.item_update', ['data:read'], false],
  ['sync.item_update', ['data:read_write'], true],
  ['sync.item_delete', ['data:read_write'], false],
  ['sync.item_delete', ['data:delete'], true],
  ['sync.project_add', ['task:add'], false],
  ['sync.project_add', ['data:read_write'], true],
  ['sync.project_delete', ['data:read_write', 'data:delete'], false],
  ['sync.project_delete', ['project:delete'], true],
  ['sync.label_delete', ['data:read_write'], false],
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
];

describe.each(MODES)('scope matrix (%s)', (mode) => {
  let system: SystemUnderTest;
  let account: Account;
  let counter = 0;

  beforeAll(async () => {
    system = await startSystem(mode);
    account = await system.createAccount();
  });

  afterAll(async () => {
    await system?.close();
  });

  /** Creates what an action needs with the personal token, then tries the action with the scoped one. */
  async function attempt(action: Action, token: string): Promise<boolean> {
    const personal = (commands: object[]) => http(system.url, 'POST', '/api/v1/sync', { token: account.token, json: { commands } });
    const withScoped = async (command: { type: string; args: Record<string, unknown> }) => {
      const uuid = `${mode}-scope-${++counter}`;
      const response = await http(system.url, 'POST', '/api/v1/sync', { token, json: { commands: [{ ...command, uuid }] } });
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
    const newLabel = async () => {
      const made = await personal([{ type: 'label_add', uuid: `${mode}-setup-${++counter}`, temp_id: 'l', args: { name: `fixture-${counter}` } }]);
      return made.body.temp_id_mapping['l'] as string;
    };
    switch (action) {
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
      case 'sync.item_update':
        return withScoped({ type: 'item_update', args: { id: await newTask(), content: 'changed' } });
      case 'sync.item_delete':
        return withScoped({ type: 'item_delete', args: { id: await newTask() } });
      case 'sync.project_add':
        return withScoped({ type: 'project_add', args: { name: 'scoped' } });
      case 'sync.project_delete': {
        const made = await personal([{ type: 'project_add', uuid: `${mode}-setup-${++counter}`, temp_id: 'p', args: { name: 'fixture' } }]);
        return withScoped({ type: 'project_delete', args: { id: made.body.temp_id_mapping['p'] } });
      }
      case 'sync.label_delete':
        return withScoped({ type: 'label_delete', args: { id: '1' } });
    }
  }

  it.each(MATRIX)('%s with %j -> allowed: %s', async (action, scopes, allowed) => {
    const token = await system.createScopedToken(account.userId, scopes);
    await expect(attempt(action, token)).resolves.toBe(allowed);
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
