import type { ObjectsRequest } from '@doable/contracts-sync';
import { renderingOf } from '../src/rendering-dialects';

const principal: ObjectsRequest['principal'] = { userId: '1', scopes: ['data:read_write'], appId: null, tokenKind: 'personal' };
const render = { dialect: 'rest-v2', public_url: 'https://doable.example' } as const;

describe('a rendering asked of the sync service', () => {
  const request = (query: ObjectsRequest['query']): ObjectsRequest => ({ principal, commands: [], query, render });

  it('is found for the objects its dialect has', () => {
    expect(renderingOf(request({ resource: 'sections', project_id: '2200000001' }))?.query.resource).toBe('sections');
    expect(renderingOf(request({ resource: 'task', id: '1' }))?.query).toEqual({ resource: 'task', id: '1' });
  });

  it('is refused, before any command runs, for any other query (the caller is wrong, not the user)', () => {
    expect(() => renderingOf(request({ resource: 'user' }))).toThrow(/renders objects it has, not user/);
    expect(() => renderingOf(request({ resource: 'workspace_projects', workspace_id: '1', archived: false }))).toThrow(/not workspace_projects/);
    expect(() => renderingOf(request(null))).toThrow(/not an empty query/);
  });

  it('is nothing without `render`: the objects are answered', () => {
    expect(renderingOf({ principal, commands: [], query: { resource: 'task', id: '1' } })).toBeUndefined();
  });
});
