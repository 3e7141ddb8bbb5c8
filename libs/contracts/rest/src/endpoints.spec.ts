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

  it('takes a trailing slash and refuses empty segments', () => {
    expect(findRestEndpoint('rest-v2', 'GET', '/rest/v2/tasks/')?.endpoint.operation).toBe('tasks.list');
    expect(findRestEndpoint('rest-v2', 'GET', '/rest/v2/tasks//close')).toBeUndefined();
  });

  it('names every operation once per method and path', () => {
    const keys = REST_ENDPOINTS.map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
