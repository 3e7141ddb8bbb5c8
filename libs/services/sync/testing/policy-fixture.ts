import { effectiveProjectRole, isProjectRole, isWorkspaceRole, type ProjectActionGroup, type ProjectRole, roleMay, type WorkspaceActionGroup, type WorkspaceRole, workspaceCollaboratorMay, workspaceRoleMay } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { type CommandPolicies, ProjectAccess, WorkspaceAccess } from '@doable/sync-engine';
import { WorkspaceHarness } from '@doable/sync-engine/testing';
import { giveWorkspacePlan } from '@doable/sync-domain/testing';

/** What the access layer answers: allowed, or the refusal's code. */
export type Decision = 'ok' | 'FORBIDDEN' | 'PROJECT_NOT_FOUND' | 'WORKSPACE_NOT_FOUND';

/** How a caller stands to a project: a role, or one of the ways of holding none. */
export const PROJECT_RELATIONS = ['CREATOR', 'ADMIN', 'READ_WRITE', 'EDIT_ONLY', 'COMPLETE_ONLY', 'invited', 'removed', 'left', 'none'] as const;
export type ProjectRelation = (typeof PROJECT_RELATIONS)[number];

/** How a caller stands to a workspace: a role, a member of another workspace only, gone, or never there. */
export const WORKSPACE_RELATIONS = ['ADMIN', 'MEMBER', 'GUEST', 'other', 'left', 'removed', 'none'] as const;
export type WorkspaceRelation = (typeof WORKSPACE_RELATIONS)[number];

/**
 * What the declarations and the role tables say a caller may do in a project: a non-member is
 * not told the project exists; a workspace ADMIN who is a member acts at least as the project's
 * ADMIN; in a workspace project, only the workspace's ADMINs and MEMBERs bring people in.
 * `workspace` undefined: a personal project.
 */
export function expectedInProject(group: ProjectActionGroup, project: ProjectRelation, workspace?: WorkspaceRelation): Decision {
  if (!isProjectRole(project)) return 'PROJECT_NOT_FOUND';
  const workspaceRole = workspace !== undefined && isWorkspaceRole(workspace) ? workspace : null;
  const role: ProjectRole = effectiveProjectRole(project, workspaceRole);
  if (!roleMay(role, group)) return 'FORBIDDEN';
  if (workspace !== undefined && !workspaceCollaboratorMay(workspaceRole, group)) return 'FORBIDDEN';
  return 'ok';
}

export function expectedInWorkspace(group: WorkspaceActionGroup, workspace: WorkspaceRelation): Decision {
  if (!isWorkspaceRole(workspace)) return 'WORKSPACE_NOT_FOUND';
  return workspaceRoleMay(workspace, group) ? 'ok' : 'FORBIDDEN';
}

/** A command's answer as a Decision (anything but ok or a coded refusal fails the spec). */
export function decisionOf(status: unknown): string {
  if (status === 'ok') return 'ok';
  const tag = (status as { error_tag?: unknown } | undefined)?.error_tag;
  return typeof tag === 'string' ? tag : JSON.stringify(status);
}

/** The users, projects and workspaces the policy specs run on, over a WorkspaceHarness (real PostgreSQL, the real commands). */
export class PolicyWorld {
  readonly harness = new WorkspaceHarness();
  private nextId: number;
  private readonly users: Record<string, string> = {};

  constructor(
    private readonly policies: CommandPolicies,
    firstUserId: number,
  ) {
    this.nextId = firstUserId;
  }

  /** Names `count` users now; they exist once start() ran. */
  reserve(count: number): string[] {
    return Array.from({ length: count }, () => {
      const id = String(this.nextId++);
      this.users[id] = `u${id}@policy.test`;
      return id;
    });
  }

  email(userId: string): string {
    return this.users[userId];
  }

  start(name: string): Promise<void> {
    return this.harness.start(name, this.users);
  }

  /** A workspace on a business plan with room for every guest and collaborator, guests allowed. */
  async workspace(admin: string, name: string): Promise<string> {
    const id = await this.harness.create(admin, 'workspace_add', { name, is_guest_allowed: true });
    await giveWorkspacePlan(this.harness.dataSource.manager, id, 'BUSINESS', { max_guests_per_workspace: 1_000_000, max_collaborators: 1_000_000, max_projects: 1_000_000 });
    return id;
  }

  /** Invites through share_project and answers the invitation's id and secret (from the event it sent). */
  async share(from: string, projectId: string, email: string, role: string): Promise<{ status: unknown; invitation?: { invitation_id: string; invitation_secret: string } }> {
    const status = await this.harness.status(from, 'share_project', { project_id: projectId, email, role });
    if (status !== 'ok') return { status };
    const sent = (await this.harness.events<{ invitationId: string; invitationSecret: string }>('sync.evt.share-invitation-sent.v1')).at(-1)!;
    return { status, invitation: { invitation_id: sent.invitationId, invitation_secret: sent.invitationSecret } };
  }

  /** Makes `userId` stand to the project as `relation`, through the sharing commands (`owner` is its CREATOR). */
  async relate(owner: string, projectId: string, userId: string, relation: ProjectRelation): Promise<void> {
    if (relation === 'none' || relation === 'CREATOR') return;
    const role = isProjectRole(relation) ? relation : 'READ_WRITE';
    const { invitation } = await this.share(owner, projectId, this.email(userId), role);
    if (!invitation) throw new Error(`could not invite ${userId} as ${role}`);
    if (relation === 'invited') return;
    await this.must(userId, 'accept_invitation', invitation);
    if (relation === 'removed') await this.must(owner, 'delete_collaborator', { project_id: projectId, email: this.email(userId) });
    if (relation === 'left') await this.must(userId, 'project_leave', { project_id: projectId });
  }

  /**
   * Makes `userId` stand to a workspace project as `relation`, as accepted invitations would
   * leave it (rows written as the commands write them: a collaborator who is no member of the
   * workspace only arises from a project moved into it, which no command here does in one step).
   */
  async relateDirectly(projectId: string, userId: string, relation: ProjectRelation): Promise<void> {
    if (relation === 'none' || relation === 'invited' || relation === 'CREATOR') return;
    const members = this.harness.repositories.members;
    await this.harness.dataSource.transaction(async (manager) => {
      const [{ version }] = await manager.query<Array<{ version: string }>>(`SELECT nextval('sync.change_version')::text AS version`);
      await members.addOrReactivate(manager, projectId, userId, isProjectRole(relation) ? relation : 'READ_WRITE', version);
      if (relation === 'removed' || relation === 'left') await members.remove(manager, projectId, userId, version);
    });
  }

  /** Makes `userId` stand to the workspace as `relation` (`other`: a MEMBER of `otherWorkspace` only). */
  async relateToWorkspace(admin: string, workspaceId: string, otherWorkspace: string, userId: string, relation: WorkspaceRelation): Promise<void> {
    if (relation === 'none') return;
    if (relation === 'other') return this.harness.addMember(otherWorkspace, userId, 'MEMBER');
    await this.harness.addMember(workspaceId, userId, isWorkspaceRole(relation) ? relation : 'MEMBER');
    if (relation === 'left') await this.must(userId, 'workspace_leave', { id: workspaceId });
    if (relation === 'removed') await this.must(admin, 'workspace_delete_user', { workspace_id: workspaceId, user_id: userId });
  }

  async must(userId: string, type: string, args: Record<string, unknown>): Promise<void> {
    const status = await this.harness.status(userId, type, args);
    if (status !== 'ok') throw new Error(`${type} by ${userId} refused: ${JSON.stringify(status)}`);
  }

  /** ProjectAccess's decision for the command, over the rows as they are now (a fresh read). */
  async projectDecision(userId: string, type: string, projectId: string): Promise<string> {
    const access = new ProjectAccess(this.harness.dataSource.manager, this.harness.repositories.members, userId, this.policies);
    return refusalCode(() => access.require(type, projectId));
  }

  async workspaceDecision(userId: string, type: string, workspaceId: string): Promise<string> {
    const access = new WorkspaceAccess(this.harness.dataSource.manager, this.harness.repositories.workspaceMembers, userId, this.policies);
    return refusalCode(() => access.require(type, workspaceId));
  }

  /** The caller's effective role in a project now (undefined: no member), as ProjectAccess reads it. */
  async effectiveRole(userId: string, projectId: string): Promise<{ role: ProjectRole; workspaceRole: WorkspaceRole | null } | undefined> {
    const row = await this.harness.repositories.members.effectiveAccessOf(this.harness.dataSource.manager, projectId, userId);
    return row && { role: row.role, workspaceRole: row.workspaceRole };
  }
}

async function refusalCode(check: () => Promise<unknown>): Promise<string> {
  try {
    await check();
    return 'ok';
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    throw err;
  }
}
