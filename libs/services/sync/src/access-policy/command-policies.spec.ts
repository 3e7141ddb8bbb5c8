import { PROJECT_ACTION_GROUPS, PROJECT_ROLES, roleMay, WORKSPACE_ACTION_GROUPS, WORKSPACE_ROLES, workspaceRoleMay } from '@doable/contracts-sync';
import { CommandPolicies } from '@doable/sync-engine';
import { registeredHandlers, registeredPolicies } from './registered-handlers';

/**
 * Every registered handler declares a policy: the compiler sees to that (CommandHandler.policy is
 * required). What is left to check is what a type cannot say: that the declarations make sense
 * together and with the role tables.
 */
describe('the declared command policies', () => {
  const { handlers, internal } = registeredHandlers();
  const policies = registeredPolicies();
  const declared = policies.declared();

  it('finds the registered commands, the internal ones too', () => {
    expect(declared.map(({ type }) => type)).toEqual(expect.arrayContaining(['item_add', 'note_add', 'label_add', 'quick_add', 'template_import', 'live_notifications_mark_read']));
    expect(declared.length).toBeGreaterThanOrEqual(handlers.length + internal.length);
  });

  it('has each command type once (a second handler of a type is refused when the registry is built)', () => {
    const types = [...handlers, ...internal].map((handler) => handler.type);
    expect(new Set(types).size).toBe(types.length);
    const [first] = handlers;
    expect(() => new CommandPolicies([first, first])).toThrow(`command ${first.type} is declared twice`);
  });

  it.each(declared.filter(({ policy }) => policy.target.project).map(({ type, policy }) => [type, policy.target.project!]))('%s needs %s, a project group some role holds', (_type, group) => {
    expect(PROJECT_ACTION_GROUPS).toContain(group);
    expect(PROJECT_ROLES.some((role) => roleMay(role, group))).toBe(true);
  });

  it.each(declared.filter(({ policy }) => policy.target.workspace).map(({ type, policy }) => [type, policy.target.workspace!]))('%s needs %s, a workspace group some role holds', (_type, group) => {
    expect(WORKSPACE_ACTION_GROUPS).toContain(group);
    expect(WORKSPACE_ROLES.some((role) => workspaceRoleMay(role, group))).toBe(true);
  });

  it('declares an addressee command as acting on nothing else (no role is read for it)', () => {
    for (const { policy } of declared.filter(({ policy }) => policy.target.addressee)) expect(policy.target).toEqual({ addressee: true });
  });

  it('has the types other commands are checked as (CommandContext.requireAccess asCommand) declare the group they lend', () => {
    // project_add under a shared parent places it as project_move; project_move_to_workspace hands the project over as project_delete.
    expect(policies.projectGroup('project_move')).toBe('manage');
    expect(policies.projectGroup('project_delete')).toBe('delete');
    expect(policies.workspaceGroup('workspace_update_user_sidebar_preference')).toBe('belong');
    expect(() => policies.projectGroup('label_add')).toThrow('declares no project group');
  });

  it('declares who grants a role: the sharing and membership commands, reading the role where the command takes it', () => {
    const grants = Object.fromEntries(declared.filter(({ policy }) => policy.grants).map(({ type, policy }) => [type, policy.grants]));
    expect(grants).toEqual({
      share_project: { role: 'project', argument: 'role', from: 'args' },
      project_change_role: { role: 'project', argument: 'role', from: 'args' },
      project_join: { role: 'project', argument: 'collaborator_role_default', from: 'project' },
      workspace_invite: { role: 'workspace', argument: 'role', from: 'args' },
      workspace_update_user: { role: 'workspace', argument: 'role', from: 'args' },
    });
  });

  it('puts the commands where the roles say: tasks are edit, completion complete, comments comment, sections organise', () => {
    const group = (type: string) => policies.projectGroup(type);
    expect(['project_delete', 'project_update', 'project_move', 'section_add', 'section_move', 'item_add', 'item_move', 'reminder_add', 'item_complete', 'item_close', 'item_uncomplete', 'item_update_date_complete', 'note_add', 'note_update', 'note_delete', 'project_leave'].map(group)).toEqual([
      'delete', 'manage', 'manage', 'organise', 'organise', 'edit', 'edit', 'edit', 'complete', 'complete', 'complete', 'complete', 'comment', 'comment', 'comment', 'leave',
    ]);
  });

  it('reads roles again after every command that changes who is a member (and only after those and role changes)', () => {
    const changing = declared.filter(({ type }) => policies.changesMemberships(type)).map(({ type }) => type);
    expect(changing.sort()).toEqual(
      [
        'accept_invitation', 'biz_accept_invitation', 'delete_collaborator', 'project_change_role', 'project_delete', 'project_join', 'project_leave', 'project_move_to_personal',
        'project_move_to_workspace', 'workspace_add', 'workspace_delete', 'workspace_delete_user', 'workspace_join', 'workspace_leave', 'workspace_update_user',
      ].sort(),
    );
    // Every command that grants a role changes memberships, but an invitation (granted when accepted).
    for (const { type, policy } of declared) if (policy.grants && type !== 'share_project' && type !== 'workspace_invite') expect(policies.changesMemberships(type)).toBe(true);
  });

  it('answers role_actions from the declarations: each role and the command types it may run', () => {
    const permissions = policies.rolePermissions();
    const byRole = new Map(permissions.project_collaborator_actions.map((entry) => [entry.name, entry.actions.map((action) => action.name)]));
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
    // Internal commands are the service's own: listed too, as the old table did (quick add and template import are edits).
    expect(byRole.get('EDIT_ONLY')).toEqual(expect.arrayContaining(['quick_add', 'template_import']));
    const workspace = new Map(permissions.workspace_collaborator_actions.map((entry) => [entry.name, entry.actions.map((action) => action.name)]));
    expect([...workspace.keys()]).toEqual([...WORKSPACE_ROLES]);
    expect(workspace.get('GUEST')!.sort()).toEqual(['workspace_leave', 'workspace_update_user_sidebar_preference']);
    expect(workspace.get('MEMBER')).toEqual(expect.arrayContaining(['project_add', 'workspace_invite', 'folder_add']));
    expect(workspace.get('MEMBER')).not.toContain('workspace_update');
  });
});
