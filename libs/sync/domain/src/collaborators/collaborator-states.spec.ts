import { type PlaceRow, statesOf } from './collaborator.repository';

const member = (user: string, state = 'active', project = '1'): PlaceRow => ({ project_id: project, user_id: user, kind: 'member', state, role: 'READ_WRITE' });
const invitation = (user: string, state = 'invited', project = '1'): PlaceRow => ({ project_id: project, user_id: user, kind: 'invitation', state, role: 'READ_WRITE' });
const keys = (places: PlaceRow[]) => statesOf(places).map((state) => `${state.project_id}:${state.user_id}:${state.state}${state.is_deleted ? ':deleted' : ''}`);

describe('statesOf', () => {
  it('gives a project with one person no states', () => {
    expect(keys([member('a')])).toEqual([]);
  });

  it('lists the members and open invitations of a shared project', () => {
    expect(keys([member('a'), member('b'), invitation('c')])).toEqual(['1:a:active', '1:b:active', '1:c:invited']);
    expect(keys([member('a'), invitation('c')])).toEqual(['1:a:active', '1:c:invited']);
  });

  it('lets a membership win over an invitation of the same user, and ignores an accepted one', () => {
    expect(keys([member('a'), invitation('b', 'accepted'), member('b')])).toEqual(['1:a:active', '1:b:active']);
    expect(keys([member('a'), invitation('b'), member('b')])).toEqual(['1:a:active', '1:b:active']);
  });

  it('writes departed members and closed invitations as tombstones', () => {
    expect(keys([member('a'), member('b'), member('c', 'deleted'), invitation('d', 'rejected')])).toEqual(['1:a:active', '1:b:active', '1:c:active:deleted', '1:d:invited:deleted']);
  });

  it('tombstones the last member too when the project stops being shared', () => {
    expect(keys([member('a'), member('b', 'deleted')])).toEqual(['1:a:active:deleted', '1:b:active:deleted']);
  });

  it('keeps projects apart', () => {
    expect(keys([member('a', 'active', '1'), member('b', 'active', '1'), member('a', 'active', '2')])).toEqual(['1:a:active', '1:b:active']);
  });
});
