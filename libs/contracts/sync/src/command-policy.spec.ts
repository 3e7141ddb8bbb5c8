import { byAddressee, type CommandPolicy, DATA_READ_WRITE, grantsFromArgument, inProject, inWorkspace, ownObjects, TASK_ADD } from './command-policy';
import { rolePermissions } from './role-tables';

describe('command policy helpers', () => {
  it('make a one-line declaration with the defaults filled in', () => {
    expect(inProject('edit', { scopes: TASK_ADD, quantity: 'max_tasks' })).toEqual<CommandPolicy>({
      target: { project: 'edit' },
      scopes: TASK_ADD,
      personalTokenArgs: [],
      membership: 'none',
      quantities: ['max_tasks'],
      variants: {},
    });
    expect(ownObjects()).toMatchObject({ target: {}, scopes: DATA_READ_WRITE, membership: 'none', quantities: [] });
    expect(byAddressee({ membership: 'workspaces' }).target).toEqual({ addressee: true });
    expect(inWorkspace('invite', { grants: grantsFromArgument('workspace', 'role') }).grants).toEqual({ role: 'workspace', argument: 'role', from: 'args' });
    expect(inProject('delete', { workspace: 'contribute' }).target).toEqual({ project: 'delete', workspace: 'contribute' });
  });

  it('list each role with the declared commands its groups allow, in group order', () => {
    const permissions = rolePermissions([
      { type: 'item_complete', policy: inProject('complete') },
      { type: 'item_add', policy: inProject('edit') },
      { type: 'label_add', policy: ownObjects() },
      { type: 'folder_add', policy: inWorkspace('contribute') },
      { type: 'workspace_update', policy: inWorkspace('administer') },
    ]);
    const actions = (roles: typeof permissions.project_collaborator_actions, name: string) => roles.find((role) => role.name === name)?.actions.map((action) => action.name);
    expect(actions(permissions.project_collaborator_actions, 'CREATOR')).toEqual(['item_add', 'item_complete']);
    expect(actions(permissions.project_collaborator_actions, 'COMPLETE_ONLY')).toEqual(['item_complete']);
    expect(actions(permissions.workspace_collaborator_actions, 'ADMIN')).toEqual(['workspace_update', 'folder_add']);
    expect(actions(permissions.workspace_collaborator_actions, 'GUEST')).toEqual([]);
  });
});
