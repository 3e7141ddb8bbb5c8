import { PROJECT_ACTION_GROUPS, PROJECT_ROLES, type ProjectActionGroup, type ProjectRole, roleMay } from './project-roles';

/** Each role's groups, as the module's documentation states them. */
const DOCUMENTED: Record<ProjectRole, ProjectActionGroup[]> = {
  CREATOR: ['delete', 'manage', 'invite', 'organise', 'edit', 'complete', 'comment'],
  ADMIN: ['manage', 'invite', 'organise', 'edit', 'complete', 'comment', 'leave'],
  READ_WRITE: ['invite', 'organise', 'edit', 'complete', 'comment', 'leave'],
  EDIT_ONLY: ['edit', 'complete', 'comment', 'leave'],
  COMPLETE_ONLY: ['complete', 'comment', 'leave'],
};

describe('project roles', () => {
  it.each(PROJECT_ROLES.map((role) => [role]))('%s may do exactly its documented groups', (role) => {
    const allowed = PROJECT_ACTION_GROUPS.filter((group) => roleMay(role, group));
    expect(allowed).toEqual(DOCUMENTED[role]);
  });

  it('the CREATOR cannot leave (it deletes the project instead); every other role can', () => {
    expect(roleMay('CREATOR', 'leave')).toBe(false);
    expect(PROJECT_ROLES.filter((role) => roleMay(role, 'leave'))).toEqual(['ADMIN', 'READ_WRITE', 'EDIT_ONLY', 'COMPLETE_ONLY']);
  });

  it('only the CREATOR deletes the project, and every role may complete and comment', () => {
    expect(PROJECT_ROLES.filter((role) => roleMay(role, 'delete'))).toEqual(['CREATOR']);
    expect(PROJECT_ROLES.every((role) => roleMay(role, 'complete') && roleMay(role, 'comment'))).toBe(true);
  });
});
