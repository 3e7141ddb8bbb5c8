import { findRestEndpoint, REST_ENDPOINTS } from './endpoints';

describe('the REST endpoint list', () => {
  it('finds fixed paths before the :id paths that would also match them', () => {
    expect(findRestEndpoint('rest-api-v1', 'GET', '/api/v1/tasks/filter')?.endpoint.operation).toBe('tasks.filter');
    expect(findRestEndpoint('rest-api-v1', 'GET', '/api/v1/projects/archived')?.endpoint.operation).toBe('projects.archived');
    expect(findRestEndpoint('rest-v2', 'GET', '/rest/v2/labels/shared')?.endpoint.operation).toBe('labels.shared');
    expect(findRestEndpoint('rest-v2', 'GET', '/rest/v2/labels/2100000001')).toEqual({ endpoint: expect.objectContaining({ operation: 'labels.get' }), params: { id: '2100000001' } });
  });

  it('serves each path only on the surfaces that have it', () => {
    expect(findRestEndpoint('rest-v2', 'GET', '/rest/v2/tasks/filter')?.endpoint.operation).toBe('tasks.get');
    expect(findRestEndpoint('rest-v1', 'GET', '/rest/v1/labels/shared')?.endpoint.operation).toBe('labels.get');
    expect(findRestEndpoint('rest-v2', 'POST', '/rest/v2/tasks/1/move')).toBeUndefined();
    expect(findRestEndpoint('rest-v2', 'GET', '/api/v1/tasks')).toBeUndefined();
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
