import { PROJECT_ROLES } from './project-roles';
import { OBJECT_READ_POLICIES, PROJECT_READ_GROUPS, projectStandingReads, readDecision, readScopes, seesWorkspaceField, WORKSPACE_READ_GROUPS, workspaceRolesReading } from './read-policy';
import { standingMay, WORKSPACE_ROLES, workspaceRolesThat } from './workspace-roles';

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

  it("shows a project's open invitations to exactly those who may invite there, in a workspace project by their place in it too", () => {
    const personal = (role: (typeof PROJECT_ROLES)[number]) => ({ role, workspaceId: null, workspaceRole: null });
    expect(PROJECT_ROLES.filter((role) => projectStandingReads(personal(role), 'invitations'))).toEqual(['CREATOR', 'ADMIN', 'READ_WRITE']);
    for (const workspaceRole of [...WORKSPACE_ROLES, null]) {
      for (const role of PROJECT_ROLES) {
        const standing = { role, workspaceId: '1', workspaceRole };
        expect([role, workspaceRole, projectStandingReads(standing, 'invitations')]).toEqual([role, workspaceRole, standingMay(standing, 'invite')]);
      }
    }
    expect(projectStandingReads({ role: 'READ_WRITE', workspaceId: '1', workspaceRole: 'GUEST' }, 'invitations')).toBe(false);
    expect(readDecision('project_invitations', { projectStanding: null })).toBe('not_found');
    expect(readDecision('project_invitations', { projectStanding: personal('EDIT_ONLY') })).toBe('forbidden');
    expect(readDecision('project_invitations', { projectStanding: personal('READ_WRITE') })).toBe('ok');
    expect(readDecision('project_invitations', { scopes: ['task:add'], projectStanding: personal('CREATOR') })).toBe('scope');
  });

  it('gives every project read group to the CREATOR: nothing about a project is kept from its owner', () => {
    expect(PROJECT_READ_GROUPS.filter((group) => !projectStandingReads({ role: 'CREATOR', workspaceId: null, workspaceRole: null }, group))).toEqual([]);
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

  it('declares a project read group only on reads of a project, and never beside a workspace group', () => {
    const misplaced = Object.entries(OBJECT_READ_POLICIES).filter(([, policy]) => policy.project !== undefined && (policy.target !== 'projects' || policy.workspace !== undefined));
    expect(misplaced).toEqual([]);
  });
});
