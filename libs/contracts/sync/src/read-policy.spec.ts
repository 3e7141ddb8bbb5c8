import { OBJECT_READ_POLICIES, readDecision, readScopes, seesWorkspaceField, WORKSPACE_READ_GROUPS, workspaceRolesReading } from './read-policy';
import { WORKSPACE_ROLES, workspaceRolesThat } from './workspace-roles';

describe('the read policy', () => {
  it('lets those who may invite see the invitations and the join link, and only the admins the pending addresses', () => {
    expect(workspaceRolesReading('invitations')).toEqual(workspaceRolesThat('invite'));
    expect(workspaceRolesReading('join_link')).toEqual(workspaceRolesThat('invite'));
    expect(workspaceRolesReading('pending_invitations')).toEqual(workspaceRolesThat('administer'));
    expect(workspaceRolesReading('belong')).toEqual([...WORKSPACE_ROLES]);
  });

  it('gives every group to the admins: no read is kept from those who run the workspace', () => {
    expect(WORKSPACE_READ_GROUPS.filter((group) => !workspaceRolesReading(group).includes('ADMIN'))).toEqual([]);
  });

  it('refuses a token without a read scope, except for the code tables and what its own request made', () => {
    expect(readDecision('tasks', { scopes: ['task:add'] })).toBe('scope');
    expect(readDecision('task', { scopes: ['task:add'], readsOwnCreation: true })).toBe('ok');
    expect(readDecision('role_permissions', { scopes: [] })).toBe('ok');
    expect(readDecision('backups', { scopes: ['backups:read'] })).toBe('ok');
    expect(readScopes('tasks')).toEqual(['data:read', 'data:read_write']);
  });

  it('answers a non-member as not found and a role that does not see it as forbidden', () => {
    expect(readDecision('workspace_users', { workspaceRole: null })).toBe('not_found');
    expect(readDecision('workspace_invitations', { workspaceRole: 'GUEST' })).toBe('forbidden');
    expect(readDecision('workspace_invitations', { workspaceRole: 'MEMBER' })).toBe('ok');
  });

  it('blanks the join link for guests and for a tombstone reader', () => {
    expect(seesWorkspaceField('workspaces', 'invite_code', 'GUEST')).toBe(false);
    expect(seesWorkspaceField('workspaces', 'invite_code', null)).toBe(false);
    expect(seesWorkspaceField('workspaces', 'name', 'GUEST')).toBe(true);
  });

  it('declares every resource with a workspace group only where it is read in a workspace', () => {
    const misplaced = Object.entries(OBJECT_READ_POLICIES).filter(([, policy]) => policy.workspace !== undefined && policy.target === 'account');
    expect(misplaced).toEqual([]);
  });
});
