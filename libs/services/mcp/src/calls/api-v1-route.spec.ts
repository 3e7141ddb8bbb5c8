import { type ApiV1Operation, parseApiV1Response, REST_OPERATION_CONTRACTS } from '@doable/contracts-rest';
import { apiV1Route } from './domain-calls';

describe('api/v1 operations as the MCP tools call them', () => {
  it('an operation names its method and path, its params escaped', () => {
    expect(apiV1Route('tasks.get', { id: 'a/b' })).toEqual({ method: 'GET', path: '/api/v1/tasks/a%2Fb' });
    expect(apiV1Route('projects.move_to_workspace')).toEqual({ method: 'POST', path: '/api/v1/projects/move_to_workspace' });
  });

  it('a missing path parameter is refused, not sent as a literal', () => {
    expect(() => apiV1Route('tasks.get')).toThrow('tasks.get needs the path parameter id');
  });

  it('every operation the contract describes for api/v1 has an endpoint', () => {
    const operations = Object.keys(REST_OPERATION_CONTRACTS) as ApiV1Operation[];
    expect(operations.filter((operation) => { try { apiV1Route(operation, new Proxy({}, { get: () => '1' })); return false; } catch { return true; } })).toEqual([]);
  });

  it('a reply is parsed by its operation’s schema: a 204 is null, a stray key is refused', () => {
    expect(parseApiV1Response('tasks.delete', undefined)).toBeNull();
    const label = { id: '1', name: 'errand', color: 'red', order: 1, is_favorite: false };
    expect(parseApiV1Response('labels.get', label)).toEqual(label);
    expect(() => parseApiV1Response('labels.get', { ...label, surprise: 1 })).toThrow();
  });
});
