import type { Scope } from '@doable/contracts-common';
import {
  COLLABORATOR_ROLES,
  effectiveProjectRole,
  isProjectRole,
  isWorkspaceRole,
  mayGrantRole,
  mayGrantWorkspaceRole,
  OBJECT_READ_POLICIES,
  type ObjectQueryResource,
  PROJECT_READ_ACTIONS,
  type ProjectStanding,
  readDecision,
  readPolicyOf,
  readWidens,
  roleMay,
  seesWorkspaceField,
  WORKSPACE_OBJECT_FIELDS,
  workspaceCollaboratorMay,
  WORKSPACE_ROLES,
  workspaceRoleMay,
} from '@doable/contracts-sync';
import { LabelRepository, NoteRepository, SectionRepository } from '@doable/sync-domain';
import type { ObjectsService } from '../objects/objects.service';
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
import { objectReads, principal, readOutcome, WALK_QUERIES, type WalkObjects } from '../../testing/read-walk';
import { registeredPolicies } from './registered-handlers';

/**
 * The access policy, generated from the declarations: for every registered command that acts in
 * a project or a workspace and every way a caller can stand to it, the engine's decision over
 * real rows (ProjectAccess, WorkspaceAccess) is what the declaration and the role tables say; and
 * every command that grants a role, run for real with every role from every standing, succeeds
 * exactly when the granter may give that role. The read policy is walked the same way below.
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
        const effective = isProjectRole(project) ? effectiveProjectRole(project, workspaceRole) : project;
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

  /**
   * The reads a project read group narrows (its open invitations), walked from every standing in
   * both projects (after the shares above left invitations in them): each answers as the read
   * policy declares and exactly as the engine decides a command of the action group the group
   * follows, and an answer holds the invitations' public keys only (never a secret's hash).
   */
  it('decides every project read group for every project and workspace standing as declared, as the commands of its group', async () => {
    const wrong: string[] = [];
    const reads = objectReads(world.harness);
    const callers = [
      ...[...personalCallers].map(([project, userId]) => ({ project, workspace: undefined, userId, projectId: personal })),
      ...workspaceProjectCallers.map(({ project, workspace: standing, userId }) => ({ project, workspace: standing, userId, projectId: workspaceProject })),
      { project: 'CREATOR' as const, workspace: 'ADMIN' as const, userId: wsAdmin, projectId: workspaceProject },
    ];
    const standingOf = ({ project, workspace: standing }: (typeof callers)[number]): ProjectStanding | null => {
      if (!isProjectRole(project)) return null;
      const workspaceRole = standing !== undefined && isWorkspaceRole(standing) ? standing : null;
      return { role: effectiveProjectRole(project, workspaceRole), workspaceId: standing === undefined ? null : workspace, workspaceRole };
    };
    const projectReads = (Object.keys(OBJECT_READ_POLICIES) as ObjectQueryResource[]).filter((resource) => readPolicyOf(resource).project !== undefined);
    expect(projectReads).toContain('project_invitations');
    for (const resource of projectReads) {
      const group = readPolicyOf(resource).project!;
      const command = projectCommands.find(({ policy }) => policy.target.project === PROJECT_READ_ACTIONS[group])!.type;
      for (const caller of callers) {
        const declared = readDecision(resource, { projectStanding: standingOf(caller) });
        const expected = declared === 'ok' ? 'answered' : declared === 'forbidden' ? 'FORBIDDEN' : 'PROJECT_NOT_FOUND';
        // A project read names its project only.
        const query = WALK_QUERIES[resource]({ project: caller.projectId } as WalkObjects);
        const outcome = await readOutcome(reads, { principal: principal(caller.userId, ['data:read']), commands: [], query });
        const actual = 'code' in outcome ? outcome.code : 'answered';
        const commanded = await world.projectDecision(caller.userId, command, caller.projectId);
        counted += 2;
        const who = `${caller.project}/${caller.workspace ?? 'personal'}`;
        if (actual !== expected) wrong.push(`${resource} by ${who}: ${actual}, declared ${expected}`);
        if ((actual === 'answered' ? 'ok' : actual) !== commanded) wrong.push(`${resource} by ${who}: ${actual}, but ${command} ${commanded}`);
        if ('objects' in outcome && (outcome.objects.length === 0 || outcome.objects.some((each) => Object.keys(each).sort().join() !== 'created_at,id,inviter_id,project_id,role,user_email'))) {
          wrong.push(`${resource} by ${who}: ${JSON.stringify(outcome.objects)}`);
        }
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

/**
 * The read policy, walked as the commands are: every object-query resource (WALK_QUERIES covers
 * the query union) read through the real read path (ObjectsService over ObjectQueryService) by
 * every kind of token and from every standing, and the answer is what OBJECT_READ_POLICIES says:
 * the scopes, the workspace role groups, the fields each role sees and the lists that widen.
 */
describe('the read policy, walked over every object-query resource (real PostgreSQL)', () => {
  const world = new PolicyWorld(policies, 9400);
  const [owner, projectMember, outsider, wsAdmin, otherAdmin] = world.reserve(5);
  const workspaceCallers = new Map(WORKSPACE_RELATIONS.map((relation) => [relation, world.reserve(1)[0]]));
  const TOKENS: ReadonlyArray<readonly Scope[]> = [['data:read'], ['data:read_write'], ['task:add'], ['backups:read'], ['data:delete', 'project:delete'], []];
  const resources = Object.keys(OBJECT_READ_POLICIES) as ObjectQueryResource[];
  let objects: WalkObjects;
  let reads: ObjectsService;
  let teamProject: string;
  let counted = 0;

  const read = (userId: string, resource: ObjectQueryResource, scopes: readonly Scope[] = ['data:read']) =>
    readOutcome(reads, { principal: principal(userId, scopes), commands: [], query: WALK_QUERIES[resource](objects) });
  const outcomeOf = (outcome: Awaited<ReturnType<typeof read>>): string => ('code' in outcome ? outcome.code : 'answered');
  /** Who reads a resource in the scope walk: the workspace's ADMIN where it is read in the workspace, else the project's owner. */
  const readerOf = (resource: ObjectQueryResource) => (readPolicyOf(resource).target === 'workspace' || readPolicyOf(resource).workspace ? wsAdmin : owner);

  beforeAll(async () => {
    await world.start('access_policy_reads');
    const harness = world.harness;
    const project = await harness.create(owner, 'project_add', { name: 'Walked' });
    await world.relate(owner, project, projectMember, 'READ_WRITE');
    const task = await harness.create(owner, 'item_add', { project_id: project, content: 'walked task', labels: ['walked'] });
    // The harness runs no section, comment or label commands: their rows are written as those commands write them.
    const { section, comment, label } = await harness.dataSource.transaction(async (manager) => {
      const [{ version }] = await manager.query<Array<{ version: string }>>(`SELECT nextval('sync.change_version')::text AS version`);
      const walked = await new SectionRepository().insert(manager, { userId: owner, projectId: project, name: 'Walked section', sectionOrder: null }, version);
      const note = await new NoteRepository().insert(manager, { projectId: project, itemId: task, postedUid: owner, content: 'walked', fileAttachment: null, uidsToNotify: null }, version);
      const existing = await manager.query<Array<{ id: string }>>(`SELECT id::text FROM sync.labels WHERE user_id = $1 AND name = 'walked'`, [owner]);
      const made = existing[0] ?? (await new LabelRepository().insert(manager, { userId: owner, name: 'walked', color: 'charcoal', itemOrder: null, isFavorite: false }, version));
      return { section: walked.id, comment: note.id, label: made.id };
    });
    const workspace = await world.workspace(wsAdmin, 'Walk');
    const other = await world.workspace(otherAdmin, 'Elsewhere');
    for (const [relation, userId] of workspaceCallers) await world.relateToWorkspace(wsAdmin, workspace, other, userId, relation);
    const folder = await harness.create(wsAdmin, 'folder_add', { workspace_id: workspace, name: 'Walked folder' });
    teamProject = await harness.create(wsAdmin, 'project_add', { name: 'Team', workspace_id: workspace });
    const archived = await harness.create(wsAdmin, 'project_add', { name: 'Team archive', workspace_id: workspace });
    await world.must(wsAdmin, 'project_archive', { id: archived });
    const invitedEmail = 'walk-invited@outside.test';
    await world.must(wsAdmin, 'workspace_invite', { workspace_id: workspace, email: invitedEmail, role: 'MEMBER' });
    objects = { project, task, section, comment, label, workspace, folder, workspaceMember: wsAdmin, invitedEmail };
    reads = objectReads(harness);
    // A migrated database and some thirty commands: more than the default hook time on a loaded machine.
  }, 180_000);

  afterAll(async () => {
    // eslint-disable-next-line no-console -- the size of the generated read walk, for whoever reads the log
    console.log(`read policy: ${counted} generated cases over ${resources.length} object-query resources`);
    await world.harness.stop();
  });

  it('walks every object-query resource the contract has', () => {
    expect(Object.keys(WALK_QUERIES).sort()).toEqual([...resources].sort());
  });

  it('answers every resource to exactly the tokens whose scopes the read policy names', async () => {
    const wrong: string[] = [];
    for (const resource of resources) {
      for (const scopes of TOKENS) {
        const expected = readDecision(resource, { scopes }) === 'scope' ? 'FORBIDDEN' : 'answered';
        const actual = outcomeOf(await read(readerOf(resource), resource, scopes));
        counted++;
        if (actual !== expected) wrong.push(`${resource} with [${scopes.join(' ')}]: ${actual}, declared ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('lets every member of a project read all of it, and shows an outsider none of it', async () => {
    const wrong: string[] = [];
    const projectIds = [objects.project, objects.task, objects.section, objects.comment].map((id) => `"${id}"`);
    for (const resource of resources.filter((each) => readPolicyOf(each).target === 'projects' && !readPolicyOf(each).workspace)) {
      const member = outcomeOf(await read(projectMember, resource));
      const outside = await read(outsider, resource);
      counted += 2;
      if (member !== 'answered') wrong.push(`${resource} by a member: ${member}`);
      const seen = 'objects' in outside && projectIds.some((id) => JSON.stringify(outside.objects).includes(id));
      if (seen || ('code' in outside && !outside.code.endsWith('_NOT_FOUND'))) wrong.push(`${resource} by an outsider: ${JSON.stringify(outside)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('decides every workspace read for every workspace standing as declared', async () => {
    const wrong: string[] = [];
    for (const resource of resources.filter((each) => readPolicyOf(each).workspace)) {
      for (const [relation, userId] of workspaceCallers) {
        const decision = readDecision(resource, { workspaceRole: isWorkspaceRole(relation) ? relation : null });
        const actual = outcomeOf(await read(userId, resource));
        counted++;
        const matches = decision === 'ok' ? actual === 'answered' : decision === 'forbidden' ? actual === 'FORBIDDEN' : actual.endsWith('_NOT_FOUND');
        if (!matches) wrong.push(`${resource} by ${relation}: ${actual}, declared ${decision}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('writes the workspace fields each role sees, and widens the team lists for those who browse them', async () => {
    const wrong: string[] = [];
    for (const [relation, userId] of workspaceCallers) {
      const role = isWorkspaceRole(relation) ? relation : null;
      const listed = await read(userId, 'workspaces');
      const mine = 'objects' in listed ? listed.objects.find((each) => each['id'] === objects.workspace) : undefined;
      if ((mine !== undefined) !== (role !== null)) wrong.push(`workspaces by ${relation}: ${mine ? 'listed' : 'not listed'}`);
      const single = await read(userId, 'workspace');
      for (const [resource, written] of [['workspaces', mine], ['workspace', 'objects' in single ? single.objects[0] : undefined]] as const) {
        if (!written) continue;
        for (const field of Object.keys(WORKSPACE_OBJECT_FIELDS)) {
          const shown = written[field] !== null && written[field] !== '';
          counted++;
          if (shown !== seesWorkspaceField(resource, field, role)) wrong.push(`${resource}.${field} for ${relation}: ${shown ? 'shown' : 'hidden'}`);
        }
      }
      if (role === null) continue;
      const projects = await read(userId, 'workspace_projects');
      const seesTeam = 'objects' in projects && projects.objects.some((each) => each['id'] === teamProject);
      const archivedCount = await read(userId, 'archived_projects_count');
      const countsTeam = 'objects' in archivedCount && archivedCount.objects[0]?.['count'] === 1;
      counted += 2;
      if (seesTeam !== readWidens('workspace_projects', role)) wrong.push(`workspace_projects for ${relation}: team project ${seesTeam ? 'listed' : 'not listed'}`);
      if (countsTeam !== readWidens('archived_projects_count', role)) wrong.push(`archived_projects_count for ${relation}: team archive ${countsTeam ? 'counted' : 'not counted'}`);
    }
    expect(wrong).toEqual([]);
  });
});
