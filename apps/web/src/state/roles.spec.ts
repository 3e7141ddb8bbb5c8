import { EMPTY_DATA } from '../api/sync-merge';
import type { CollaboratorState, SyncData } from '../api/sync-types';
import { myRole, projectRights } from './roles';

function withStates(states: CollaboratorState[]): SyncData {
  return { ...EMPTY_DATA, user: { id: 'me' }, collaborator_states: new Map(states.map((state) => [`${state.project_id}:${state.user_id}`, state])) };
}

describe('project roles', () => {
  it('makes the person the creator of a project nobody else is on, and reads their role on a shared one', () => {
    const data = withStates([
      { project_id: 'p1', user_id: 'me', state: 'active', role: 'READ_WRITE' },
      { project_id: 'p1', user_id: 'ana', state: 'active', role: 'CREATOR' },
      { project_id: 'p2', user_id: 'me', state: 'active', role: 'CREATOR' },
      { project_id: 'p2', user_id: 'bo', state: 'invited', role: 'READ_WRITE' },
    ]);
    expect(myRole(data, 'p1')).toBe('READ_WRITE');
    expect(myRole(data, 'p2')).toBe('CREATOR');
    expect(myRole(data, 'p3')).toBe('CREATOR');
  });

  it('offers delete to the creator only and leave to everyone else', () => {
    expect(projectRights('CREATOR')).toMatchObject({ delete: true, leave: false, manage: true });
    expect(projectRights('ADMIN')).toMatchObject({ delete: false, leave: true, manage: true });
    expect(projectRights('READ_WRITE')).toMatchObject({ delete: false, leave: true, manage: false, edit: true });
    expect(projectRights('READ_ONLY')).toMatchObject({ delete: false, leave: true, manage: false, edit: false, share: false });
  });
});
