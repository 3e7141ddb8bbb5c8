import { COMMAND_ACTION_GROUP, PROJECT_ACTION_GROUPS, PROJECT_ROLES, type ProjectActionGroup, type ProjectRole, projectRoleActions, roleMay } from './project-roles';

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

  it('puts the commands where the roles say: tasks are edit, completion complete, comments comment, sections organise', () => {
    expect(COMMAND_ACTION_GROUP).toMatchObject({
      project_delete: 'delete',
      project_update: 'manage',
      project_move: 'manage',
      section_add: 'organise',
      section_move: 'organise',
      item_add: 'edit',
      item_move: 'edit',
      reminder_add: 'edit',
      item_complete: 'complete',
      item_close: 'complete',
      item_uncomplete: 'complete',
      item_update_date_complete: 'complete',
      note_add: 'comment',
      note_update: 'comment',
      note_delete: 'comment',
      project_leave: 'leave',
    });
    for (const group of Object.values(COMMAND_ACTION_GROUP)) expect(PROJECT_ACTION_GROUPS).toContain(group);
  });

  it('answers each role the command types its groups allow (the permissions resource)', () => {
    const byRole = new Map(projectRoleActions().map((entry) => [entry.name, entry.actions.map((action) => action.name)]));
    expect([...byRole.keys()]).toEqual([...PROJECT_ROLES]);
    const completeOnly = byRole.get('COMPLETE_ONLY')!;
    expect(completeOnly).toEqual(expect.arrayContaining(['item_complete', 'item_uncomplete', 'note_add', 'project_leave']));
    expect(completeOnly).not.toContain('item_add');
    expect(completeOnly).not.toContain('section_add');
    expect(byRole.get('EDIT_ONLY')).toContain('item_add');
    expect(byRole.get('EDIT_ONLY')).not.toContain('section_add');
    expect(byRole.get('CREATOR')).toContain('project_delete');
    expect(byRole.get('CREATOR')).not.toContain('project_leave');
    expect(byRole.get('ADMIN')).not.toContain('project_delete');
  });
});
