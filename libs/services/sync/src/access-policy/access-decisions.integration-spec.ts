import { COLLABORATOR_ROLES, isProjectRole, isWorkspaceRole, mayGrantRole, mayGrantWorkspaceRole, roleMay, workspaceCollaboratorMay, WORKSPACE_ROLES, workspaceRoleMay } from '@doable/contracts-sync';
import {
  decisionOf,
  expectedInProject,
  expectedInWorkspace,
  PolicyWorld,
  PROJECT_RELATIONS,
  type ProjectRelation,
  WORKSPACE_RELATIONS,
  type WorkspaceRelation,
} from '../../testing/policy-fixture';
import { registeredPolicies } from './registered-handlers';

/**
 * The access policy, generated from the declarations: for every registered command that acts in
 * a project or a workspace and every way a caller can stand to it, the engine's decision over
 * real rows (ProjectAccess, WorkspaceAccess) is what the declaration and the role tables say; and
 * every command that grants a role, run for real with every role from every standing, succeeds
 * exactly when the granter may give that role.
 */
const policies = registeredPolicies();
const declared = policies.declared();
const projectCommands = declared.filter(({ policy }) => policy.target.project);
const workspaceCommands = declared.filter(({ policy }) => policy.target.workspace);

/** Project standings in a workspace project (the CREATOR is the workspace's ADMIN who made it; 'invited' holds no row, as 'none'). */
const IN_WORKSPACE_PROJECT: readonly ProjectRelation[] = ['ADMIN', 'READ_WRITE', 'EDIT_ONLY', 'COMPLETE_ONLY', 'removed', 'left', 'none'];
const WORKSPACE_STANDINGS: readonly WorkspaceRelation[] = ['ADMIN', 'MEMBER', 'GUEST', 'other', 'none'];

describe('the access policy, generated from the command declarations (real PostgreSQL)', () => {
  const world = new PolicyWorld(policies, 9100);
  const [owner, wsAdmin, otherAdmin] = world.reserve(3);
  const personalCallers = new Map<ProjectRelation, string>(PROJECT_RELATIONS.filter((relation) => relation !== 'CREATOR').map((relation) => [relation, world.reserve(1)[0]]));
  personalCallers.set('CREATOR', owner);
  const workspaceProjectCallers = IN_WORKSPACE_PROJECT.flatMap((project) => WORKSPACE_STANDINGS.map((workspace) => ({ project, workspace, userId: world.reserve(1)[0] })));
  const workspaceCallers = new Map(WORKSPACE_RELATIONS.map((relation) => [relation, world.reserve(1)[0]]));
  const changeRoleTarget = world.reserve(1)[0];
  const workspaceRoleTarget = world.reserve(1)[0];
  let personal: string;
  let workspace: string;
  let workspaceProject: string;
  let counted = 0;

  beforeAll(async () => {
    await world.start('access_policy_decisions');
    personal = await world.harness.create(owner, 'project_add', { name: 'Personal, shared' });
    for (const [relation, userId] of personalCallers) await world.relate(owner, personal, userId, relation);
    await world.relate(owner, personal, changeRoleTarget, 'COMPLETE_ONLY');

    workspace = await world.workspace(wsAdmin, 'Acme');
    const other = await world.workspace(otherAdmin, 'Elsewhere');
    workspaceProject = await world.harness.create(wsAdmin, 'project_add', { name: 'Team project', workspace_id: workspace });
    for (const caller of workspaceProjectCallers) {
      await world.relateToWorkspace(wsAdmin, workspace, other, caller.userId, caller.workspace);
      await world.relateDirectly(workspaceProject, caller.userId, caller.project);
    }
    for (const [relation, userId] of workspaceCallers) await world.relateToWorkspace(wsAdmin, workspace, other, userId, relation);
    await world.harness.addMember(workspace, workspaceRoleTarget, 'MEMBER');
  });

  afterAll(async () => {
    // eslint-disable-next-line no-console -- the size of the generated policy run, for whoever reads the log
    console.log(`access policy: ${counted} generated cases (${projectCommands.length} project and ${workspaceCommands.length} workspace command types)`);
    await world.harness.stop();
  });

  it('finds the commands to check', () => {
    expect(projectCommands.map(({ type }) => type)).toEqual(expect.arrayContaining(['item_add', 'share_project', 'project_delete', 'quick_add', 'template_import']));
    expect(workspaceCommands.map(({ type }) => type)).toEqual(expect.arrayContaining(['workspace_invite', 'project_add', 'workspace_update_user_sidebar_preference']));
  });

  it('decides every project command for every standing in a personal project as declared', async () => {
    const wrong: string[] = [];
    for (const [relation, userId] of personalCallers) {
      for (const { type, policy } of projectCommands) {
        const expected = expectedInProject(policy.target.project!, relation);
        const actual = await world.projectDecision(userId, type, personal);
        counted++;
        if (actual !== expected) wrong.push(`${type} by ${relation}: ${actual}, declared ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('decides every project command for every project and workspace standing in a workspace project as declared', async () => {
    const wrong: string[] = [];
    const callers = [...workspaceProjectCallers, { project: 'CREATOR' as const, workspace: 'ADMIN' as const, userId: wsAdmin }];
    for (const { project, workspace: standing, userId } of callers) {
      for (const { type, policy } of projectCommands) {
        const expected = expectedInProject(policy.target.project!, project, standing);
        const actual = await world.projectDecision(userId, type, workspaceProject);
        counted++;
        if (actual !== expected) wrong.push(`${type} by ${project}/${standing}: ${actual}, declared ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('decides every workspace command for every workspace standing as declared', async () => {
    const wrong: string[] = [];
    for (const [relation, userId] of workspaceCallers) {
      for (const { type, policy } of workspaceCommands) {
        const expected = expectedInWorkspace(policy.target.workspace!, relation);
        const actual = await world.workspaceDecision(userId, type, workspace);
        counted++;
        if (actual !== expected) wrong.push(`${type} by ${relation}: ${actual}, declared ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('share_project gives a role only when the sharer may give it (mayGrantRole), from every standing in a personal project', async () => {
    const wrong: string[] = [];
    for (const [relation, userId] of personalCallers) {
      for (const role of COLLABORATOR_ROLES) {
        const expected = !isProjectRole(relation) ? 'PROJECT_NOT_FOUND' : roleMay(relation, 'invite') && mayGrantRole(relation, role) ? 'ok' : 'FORBIDDEN';
        const { status } = await world.share(userId, personal, `share-${relation}-${role}@outside.test`.toLowerCase(), role);
        counted++;
        if (decisionOf(status) !== expected) wrong.push(`${relation} sharing as ${role}: ${decisionOf(status)}, expected ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('share_project in a workspace project: the same, and only workspace ADMINs and MEMBERs bring anyone in', async () => {
    const wrong: string[] = [];
    for (const { project, workspace: standing, userId } of workspaceProjectCallers) {
      for (const role of COLLABORATOR_ROLES) {
        const workspaceRole = isWorkspaceRole(standing) ? standing : null;
        const effective = isProjectRole(project) && workspaceRole === 'ADMIN' ? 'ADMIN' : project;
        const expected = !isProjectRole(effective)
          ? 'PROJECT_NOT_FOUND'
          : roleMay(effective, 'invite') && workspaceCollaboratorMay(workspaceRole, 'invite') && mayGrantRole(effective, role)
            ? 'ok'
            : 'FORBIDDEN';
        const { status } = await world.share(userId, workspaceProject, `ws-share-${userId}-${role}@outside.test`.toLowerCase(), role);
        counted++;
        if (decisionOf(status) !== expected) wrong.push(`${project}/${standing} sharing as ${role}: ${decisionOf(status)}, expected ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('project_change_role gives a role only when the changer manages the project and may give it', async () => {
    const wrong: string[] = [];
    for (const [relation, userId] of personalCallers) {
      for (const role of COLLABORATOR_ROLES) {
        const expected = !isProjectRole(relation) ? 'PROJECT_NOT_FOUND' : roleMay(relation, 'manage') && mayGrantRole(relation, role) ? 'ok' : 'FORBIDDEN';
        const status = await world.harness.status(userId, 'project_change_role', { id: personal, user_id: changeRoleTarget, role });
        counted++;
        if (decisionOf(status) !== expected) wrong.push(`${relation} changing to ${role}: ${decisionOf(status)}, expected ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('workspace_invite and workspace_update_user give a workspace role only when the giver may (mayGrantWorkspaceRole)', async () => {
    const wrong: string[] = [];
    for (const [relation, userId] of workspaceCallers) {
      for (const role of WORKSPACE_ROLES) {
        const member = isWorkspaceRole(relation);
        const invite = !member ? 'WORKSPACE_NOT_FOUND' : workspaceRoleMay(relation, 'invite') && mayGrantWorkspaceRole(relation, role) ? 'ok' : 'FORBIDDEN';
        const invited = await world.harness.status(userId, 'workspace_invite', { workspace_id: workspace, email: `ws-invite-${relation}-${role}@outside.test`.toLowerCase(), role });
        const update = !member ? 'WORKSPACE_NOT_FOUND' : workspaceRoleMay(relation, 'administer') && mayGrantWorkspaceRole(relation, role) ? 'ok' : 'FORBIDDEN';
        const updated = await world.harness.status(userId, 'workspace_update_user', { workspace_id: workspace, user_id: workspaceRoleTarget, role });
        counted += 2;
        if (decisionOf(invited) !== invite) wrong.push(`${relation} inviting as ${role}: ${decisionOf(invited)}, expected ${invite}`);
        if (decisionOf(updated) !== update) wrong.push(`${relation} making a member ${role}: ${decisionOf(updated)}, expected ${update}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
