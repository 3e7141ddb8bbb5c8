import { findRestEndpoint, REST_ENDPOINTS } from './endpoints';

describe('the REST endpoint list', () => {
  it('finds fixed paths before the :id paths that would also match them', () => {
    expect(findRestEndpoint('rest-api-v1', 'GET', '/api/v1/tasks/filter')?.endpoint.operation).toBe('tasks.filter');
    expect(findRestEndpoint('rest-api-v1', 'GET', '/api/v1/projects/archived')?.endpoint.operation).toBe('projects.archived');
    expect(findRestEndpoint('rest-api-v1', 'GET', '/api/v1/projects/archived/count')?.endpoint.operation).toBe('projects.archived_count');
    expect(findRestEndpoint('rest-api-v1', 'GET', '/api/v1/projects/permissions')?.endpoint.operation).toBe('projects.permissions');
    expect(findRestEndpoint('rest-v2', 'GET', '/rest/v2/labels/shared')?.endpoint.operation).toBe('labels.shared');
    expect(findRestEndpoint('rest-v2', 'GET', '/rest/v2/labels/2100000001')).toEqual({ endpoint: expect.objectContaining({ operation: 'labels.get' }), params: { id: '2100000001' } });
  });

  it('serves each path only on the surfaces that have it', () => {
    expect(findRestEndpoint('rest-v2', 'GET', '/rest/v2/tasks/filter')?.endpoint.operation).toBe('tasks.get');
    expect(findRestEndpoint('rest-v1', 'GET', '/rest/v1/labels/shared')?.endpoint.operation).toBe('labels.get');
    expect(findRestEndpoint('rest-v2', 'POST', '/rest/v2/tasks/1/move')).toBeUndefined();
    expect(findRestEndpoint('rest-v2', 'GET', '/api/v1/tasks')).toBeUndefined();
  });

  it('matches the sdk 17 project extras and id mappings on api/v1 only', () => {
    expect(findRestEndpoint('rest-api-v1', 'GET', '/api/v1/projects/6Jf8VQXxpwv56VQ7/full')).toEqual({ endpoint: expect.objectContaining({ operation: 'projects.full' }), params: { id: '6Jf8VQXxpwv56VQ7' } });
    expect(findRestEndpoint('rest-api-v1', 'POST', '/api/v1/projects/1/join')?.endpoint.operation).toBe('projects.join');
    expect(findRestEndpoint('rest-api-v1', 'GET', '/api/v1/id_mappings/tasks/1,2')).toEqual({ endpoint: expect.objectContaining({ operation: 'id_mappings.get' }), params: { object: 'tasks', ids: '1,2' } });
    expect(findRestEndpoint('rest-v2', 'GET', '/rest/v2/projects/1/full')).toBeUndefined();
    expect(findRestEndpoint('rest-v2', 'GET', '/rest/v2/projects/permissions')?.endpoint.operation).toBe('projects.get');
  });

  it('matches the sdk 17 workspace and folder endpoints on api/v1 only, fixed paths before :id', () => {
    const operation = (method: string, path: string) => findRestEndpoint('rest-api-v1', method, path)?.endpoint.operation;
    expect(operation('GET', '/api/v1/workspaces')).toBe('workspaces.list');
    expect(operation('POST', '/api/v1/workspaces')).toBe('workspaces.create');
    expect(operation('GET', '/api/v1/workspaces/users')).toBe('workspaces.users');
    expect(operation('GET', '/api/v1/workspaces/invitations')).toBe('workspaces.invitations');
    expect(operation('GET', '/api/v1/workspaces/invitations/all')).toBe('workspaces.invitations.all');
    expect(operation('POST', '/api/v1/workspaces/invitations/delete')).toBe('workspaces.invitations.delete');
    expect(operation('POST', '/api/v1/workspaces/join')).toBe('workspaces.join');
    expect(operation('GET', '/api/v1/workspaces/plan_details')).toBe('workspaces.plan_details');
    expect(operation('GET', '/api/v1/workspaces/7')).toBe('workspaces.get');
    expect(operation('POST', '/api/v1/workspaces/7')).toBe('workspaces.update');
    expect(operation('DELETE', '/api/v1/workspaces/7')).toBe('workspaces.delete');
    expect(operation('POST', '/api/v1/workspaces/7/users/invite')).toBe('workspaces.users.invite');
    expect(findRestEndpoint('rest-api-v1', 'POST', '/api/v1/workspaces/7/users/9')).toEqual({ endpoint: expect.objectContaining({ operation: 'workspaces.users.update' }), params: { id: '7', user_id: '9' } });
    expect(operation('DELETE', '/api/v1/workspaces/7/users/9')).toBe('workspaces.users.remove');
    expect(operation('GET', '/api/v1/workspaces/7/projects/active')).toBe('workspaces.projects.active');
    expect(operation('GET', '/api/v1/workspaces/7/projects/archived')).toBe('workspaces.projects.archived');
    expect(findRestEndpoint('rest-api-v1', 'PUT', '/api/v1/workspaces/invitations/s3cr3t/accept')).toEqual({
      endpoint: expect.objectContaining({ operation: 'workspaces.invitations.accept' }),
      params: { invite_code: 's3cr3t' },
    });
    expect(operation('PUT', '/api/v1/workspaces/invitations/s3cr3t/reject')).toBe('workspaces.invitations.reject');
    expect(operation('POST', '/api/v1/workspaces/invitations/s3cr3t/accept')).toBeUndefined();
    expect(operation('GET', '/api/v1/folders')).toBe('folders.list');
    expect(operation('POST', '/api/v1/folders/3')).toBe('folders.update');
    expect(operation('DELETE', '/api/v1/folders/3')).toBe('folders.delete');
    expect(operation('POST', '/api/v1/projects/move_to_workspace')).toBe('projects.move_to_workspace');
    expect(operation('POST', '/api/v1/projects/move_to_personal')).toBe('projects.move_to_personal');
    expect(findRestEndpoint('rest-v2', 'GET', '/rest/v2/workspaces')).toBeUndefined();
    expect(findRestEndpoint('rest-v2', 'POST', '/rest/v2/projects/move_to_personal')?.endpoint.operation).toBe('projects.update');
  });

  it('takes a trailing slash and refuses empty segments', () => {
    expect(findRestEndpoint('rest-v2', 'GET', '/rest/v2/tasks/')?.endpoint.operation).toBe('tasks.list');
    expect(findRestEndpoint('rest-v2', 'GET', '/rest/v2/tasks//close')).toBeUndefined();
  });

  it('names every operation once per method and path', () => {
    const keys = REST_ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
