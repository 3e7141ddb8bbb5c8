import type { Principal } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import type { RestCall } from './rest-call';
import { checkRestInput } from './rest-input';

const principal = { userId: '1', scopes: ['data:read_write'], appId: null } as unknown as Principal;

function refusal(call: Partial<RestCall>): string | undefined {
  try {
    checkRestInput({ surface: 'rest-v2', operation: 'tasks.create', principal, params: {}, query: {}, body: {}, requestId: null, ...call });
    return undefined;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return `${err.code} ${String(err.extra['argument'])}: ${err.message}`;
  }
}

describe('REST input checked against the operation contracts', () => {
  it('answers a missing or blank required field as ARGUMENT_MISSING', () => {
    expect(refusal({ body: { description: 'x' } })).toBe('ARGUMENT_MISSING content: Required argument is missing: content');
    expect(refusal({ body: { content: '  ' } })).toBe('ARGUMENT_MISSING content: Required argument is missing: content');
  });

  it('answers a wrong value as INVALID_ARGUMENT_VALUE in the argument readers’ words', () => {
    expect(refusal({ body: { content: 42 } })).toBe('INVALID_ARGUMENT_VALUE content: Invalid argument value: content (must be a string)');
    expect(refusal({ body: { content: 'x', priority: 9 } })).toBe('INVALID_ARGUMENT_VALUE priority: Invalid argument value: priority (at most 4)');
    expect(refusal({ body: { content: 'x', labels: 'a,b' } })).toBe('INVALID_ARGUMENT_VALUE labels: Invalid argument value: labels (must be a list of strings)');
    expect(refusal({ body: { content: 'x', due_date: 'soon' } })).toBe('INVALID_ARGUMENT_VALUE due_date: Invalid argument value: due_date (YYYY-MM-DD)');
    expect(refusal({ operation: 'projects.create', body: { name: 'x', is_favorite: 'yes' } })).toBe('INVALID_ARGUMENT_VALUE is_favorite: Invalid argument value: is_favorite (must be a boolean)');
  });

  it('checks query parameters too, a repeated one included', () => {
    expect(refusal({ surface: 'rest-api-v1', operation: 'tasks.list', query: { limit: '500' } })).toBe('INVALID_ARGUMENT_VALUE limit: Invalid argument value: limit (at most 200)');
    expect(refusal({ surface: 'rest-api-v1', operation: 'tasks.list', query: { project_id: ['1', '2'] } })).toBe('INVALID_ARGUMENT_VALUE project_id: Invalid argument value: project_id (sent more than once)');
    expect(refusal({ surface: 'rest-api-v1', operation: 'tasks.filter', query: {} })).toBe('ARGUMENT_MISSING query: Required argument is missing: query');
  });

  it('lets what the contract allows through, and leaves REST v1 to its own readers', () => {
    expect(refusal({ body: { content: 'x', priority: '4', section_id: null, assignee_id: 0, duration: 30, duration_unit: 'minute', unknown_key: true } })).toBeUndefined();
    expect(refusal({ surface: 'rest-v1', body: { content: 42 } })).toBeUndefined();
  });
});
