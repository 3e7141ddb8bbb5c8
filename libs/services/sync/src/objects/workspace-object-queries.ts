import { hashToken } from '@doable/contracts-auth';
import { isObjectId } from '@doable/contracts-common';
import { BUILTIN_WORKSPACE_BUSINESS, BUILTIN_WORKSPACE_STARTER } from '@doable/contracts-plans';
import {
  type ApiProject,
  type ApiWorkspace,
  type ApiWorkspaceInvitation,
  type ApiWorkspaceMembership,
  type ApiWorkspacePlanDetails,
  type ObjectQuery,
  readDecision,
  readPolicyOf,
  readWidens,
  type WorkspaceRole,
  workspaceRoleReads,
} from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { writeFolder, writeWorkspace, writeWorkspaceUser } from '@doable/sync-dialects';
import { type Project, type Workspace, WorkspaceMembersRepository, WorkspaceRepository } from '@doable/sync-domain';
import { type WorkspaceInvitationRow, WorkspaceReadsRepository } from './workspace-reads.repository';
import { answer, type QueryResult } from './query-result';

export type WorkspaceQuery = Extract<
  ObjectQuery,
  {
    resource:
      | 'workspaces'
      | 'workspace'
      | 'workspace_users'
      | 'workspace_invitations'
      | 'workspace_invitation'
      | 'workspace_plan_details'
      | 'workspace_membership'
      | 'workspace_projects'
      | 'folders'
      | 'folder';
  }
>;

const WORKSPACE_RESOURCES: ReadonlySet<string> = new Set<WorkspaceQuery['resource']>([
  'workspaces',
  'workspace',
  'workspace_users',
  'workspace_invitations',
  'workspace_invitation',
  'workspace_plan_details',
  'workspace_membership',
  'workspace_projects',
  'folders',
  'folder',
]);

export function isWorkspaceQuery(query: ObjectQuery): query is WorkspaceQuery {
  return WORKSPACE_RESOURCES.has(query.resource);
}

/** How the caller writes projects (api/v1, with their comment counts): ObjectQueryService's. */
export type ProjectWriter = (manager: EntityManager, rows: readonly Project[]) => Promise<ApiProject[]>;

const notFound = (workspaceId: string) => new DomainError('WORKSPACE_NOT_FOUND', 'Workspace not found', { workspace_id: workspaceId });

/** The resources read in one named workspace. */
type WorkspaceRead = WorkspaceQuery['resource'] | 'archived_projects_count';

/**
 * The read policy's answer for a reader with `role` in the workspace (null: no active member):
 * the role when it may read `resource` there; WORKSPACE_NOT_FOUND for a non-member (as a workspace
 * that does not exist), FORBIDDEN for a role that does not see it.
 */
function allowed(resource: WorkspaceRead, workspaceId: string, role: WorkspaceRole | null): WorkspaceRole {
  const decision = readDecision(resource, { workspaceRole: role });
  if (role === null || decision === 'not_found') throw notFound(workspaceId);
  if (decision !== 'ok') {
    throw new DomainError('FORBIDDEN', `Your role in this workspace (${role}) does not allow seeing its ${readPolicyOf(resource).workspace}`, { workspace_id: workspaceId, role });
  }
  return role;
}

/**
 * A workspace as the api/v1 REST endpoints answer it (sdk 17 WorkspaceSchema): the sync object,
 * whose `invite_code` a guest does not get; REST's schema requires a string, so a guest reads
 * an empty one (a guess: the join link is for those who may invite).
 */
export function writeRestWorkspace(workspace: Workspace): ApiWorkspace {
  const written = writeWorkspace(workspace);
  return { ...written, invite_code: written.invite_code ?? '', date_created: written.created_at };
}

/** An invitation as api/v1 answers it (sdk 17 WorkspaceInvitationSchema). */
function writeInvitation(row: WorkspaceInvitationRow): ApiWorkspaceInvitation {
  return { id: row.id, inviter_id: row.inviter_id, user_email: row.user_email, workspace_id: row.workspace_id, role: row.role };
}

/**
 * The workspace reads of the api/v1 REST endpoints. Every read checks the reader's membership
 * first: a workspace they are not an active member of is WORKSPACE_NOT_FOUND (404), as one that
 * does not exist. Guests read the workspace, its member list (as the sync workspace_users
 * resource gives them) and its folders; invitations only those who may invite (ADMIN, MEMBER).
 */
@Injectable()
export class WorkspaceObjectQueries {
  constructor(
    private readonly reads: WorkspaceReadsRepository,
    private readonly workspaces: WorkspaceRepository,
    private readonly members: WorkspaceMembersRepository,
  ) {}

  async run(manager: EntityManager, userId: string, query: WorkspaceQuery, id: (value: string) => string, writeProjects: ProjectWriter): Promise<QueryResult<WorkspaceQuery['resource']>> {
    const optionalId = (value: string | undefined) => (value === undefined ? undefined : id(value));
    switch (query.resource) {
      case 'workspaces':
        return answer(query, (await this.workspaces.listActive(manager, userId)).map(writeRestWorkspace));
      case 'workspace':
        return answer(query, [writeRestWorkspace(await this.workspace(manager, userId, id(query.id), query.resource))]);
      case 'workspace_users': {
        const workspaceId = optionalId(query.workspace_id);
        if (workspaceId !== undefined) await this.roleIn(manager, userId, workspaceId, query.resource);
        const { rows, hasMore } = await this.reads.members(manager, userId, workspaceId, query.page);
        return answer(query, rows.map(writeWorkspaceUser), hasMore);
      }
      case 'workspace_invitations': {
        const workspaceId = optionalId(query.workspace_id);
        return answer(query, (await this.reads.pendingInvitations(manager, await this.invitingWorkspaces(manager, userId, workspaceId, query.resource))).map(writeInvitation));
      }
      case 'workspace_invitation':
        return answer(query, [writeInvitation(await this.invitation(manager, userId, query, optionalId))]);
      case 'workspace_plan_details':
        return answer(query, [planDetails(await this.workspace(manager, userId, id(query.workspace_id), query.resource))]);
      case 'workspace_membership':
        return answer(query, [await this.membership(manager, userId, query, optionalId)]);
      case 'workspace_projects': {
        const workspaceId = id(query.workspace_id);
        const role = await this.roleIn(manager, userId, workspaceId, query.resource);
        const { rows, hasMore } = await this.reads.projects(manager, userId, workspaceId, { archived: query.archived, browsesTeam: readWidens(query.resource, role) }, query.page);
        return answer(query, await writeProjects(manager, rows), hasMore);
      }
      case 'folders': {
        const workspaceId = optionalId(query.workspace_id);
        if (workspaceId !== undefined) await this.roleIn(manager, userId, workspaceId, query.resource);
        const { rows, hasMore } = await this.reads.folders(manager, userId, workspaceId, query.page);
        return answer(query, rows.map(writeFolder), hasMore);
      }
      case 'folder': {
        const folder = await this.reads.folder(manager, userId, id(query.id));
        if (!folder) throw new DomainError('FOLDER_NOT_FOUND', 'Folder not found', { id: query.id });
        return answer(query, [writeFolder(folder)]);
      }
    }
  }

  /** The archived projects of a workspace its member sees (`projects/archived/count?workspace_id=`). */
  async archivedProjectCount(manager: EntityManager, userId: string, workspaceId: string): Promise<number> {
    const role = await this.roleIn(manager, userId, workspaceId, 'archived_projects_count');
    return (await this.reads.projects(manager, userId, workspaceId, { archived: true, browsesTeam: readWidens('archived_projects_count', role) }, undefined)).rows.length;
  }

  private async workspace(manager: EntityManager, userId: string, workspaceId: string, resource: WorkspaceRead): Promise<Workspace> {
    const workspace = await this.workspaces.findForMember(manager, userId, workspaceId);
    if (!workspace) throw notFound(workspaceId);
    allowed(resource, workspaceId, workspace.role);
    return workspace;
  }

  /** The reader's role in a workspace, once the read policy lets it read `resource` there (WORKSPACE_NOT_FOUND unless an active member). */
  private async roleIn(manager: EntityManager, userId: string, workspaceId: string, resource: WorkspaceRead): Promise<WorkspaceRole> {
    // The one id rule: 19 digits past a bigint are no id (found nowhere), not a failed cast.
    const role = (isObjectId(workspaceId) ? await this.members.roleOf(manager, workspaceId, userId) : undefined) ?? null;
    return allowed(resource, workspaceId, role);
  }

  /** The workspaces whose invitations the reader may see: the one named (FORBIDDEN for a guest), or every one they may see them in. */
  private async invitingWorkspaces(manager: EntityManager, userId: string, workspaceId: string | undefined, resource: 'workspace_invitations' | 'workspace_invitation'): Promise<string[]> {
    if (workspaceId !== undefined) {
      await this.roleIn(manager, userId, workspaceId, resource);
      return [workspaceId];
    }
    const group = readPolicyOf(resource).workspace;
    const workspaces = await this.workspaces.listActive(manager, userId);
    return workspaces.filter((workspace) => group !== undefined && workspaceRoleReads(workspace.role, group)).map((workspace) => workspace.id);
  }

  private async invitation(
    manager: EntityManager,
    userId: string,
    query: Extract<WorkspaceQuery, { resource: 'workspace_invitation' }>,
    optionalId: (value: string | undefined) => string | undefined,
  ): Promise<WorkspaceInvitationRow> {
    let row: WorkspaceInvitationRow | undefined;
    if (query.invitation_secret !== undefined) {
      row = await this.reads.ownInvitationBySecretHash(manager, userId, hashToken(query.invitation_secret));
    } else {
      const workspaceId = optionalId(query.workspace_id);
      if (workspaceId === undefined || query.email === undefined) throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: workspace_id', { argument: 'workspace_id' });
      const [workspace] = await this.invitingWorkspaces(manager, userId, workspaceId, query.resource);
      row = await this.reads.invitationTo(manager, workspace, query.email);
    }
    if (!row) throw new DomainError('INVITATION_NOT_FOUND', 'Invitation not found');
    return row;
  }

  /**
   * A membership as JoinWorkspaceResult (what `workspaces/join` and `workspaces/{id}/users/{user_id}`
   * answer). The reader's own by workspace id or join code; another member's only to a member of the same workspace.
   */
  private async membership(
    manager: EntityManager,
    userId: string,
    query: Extract<WorkspaceQuery, { resource: 'workspace_membership' }>,
    optionalId: (value: string | undefined) => string | undefined,
  ): Promise<ApiWorkspaceMembership> {
    let workspaceId = optionalId(query.workspace_id);
    if (workspaceId === undefined && query.invite_code !== undefined) workspaceId = await this.workspaces.findIdByInviteCode(manager, query.invite_code);
    if (workspaceId === undefined) throw new DomainError('WORKSPACE_NOT_FOUND', 'Workspace not found');
    const ownRole = await this.roleIn(manager, userId, workspaceId, query.resource);
    const memberId = optionalId(query.user_id) ?? userId;
    const role = memberId === userId ? ownRole : isObjectId(memberId) ? await this.members.roleOf(manager, workspaceId, memberId) : undefined;
    if (!role) throw new DomainError('USER_NOT_FOUND', 'User not found in this workspace', { user_id: memberId, workspace_id: workspaceId });
    // Doable has no admin-imposed project sorting: never applied, no preference.
    return { custom_sorting_applied: false, project_sort_preference: '', role, user_id: memberId, workspace_id: workspaceId };
  }
}

/**
 * `workspaces/plan_details` (sdk 17 WorkspacePlanDetailsSchema). Doable bills nothing: no prices,
 * trials or billing portal; a BUSINESS workspace's plan is "Active", a STARTER one's
 * "NeverSubscribed" (guesses, written down in docs/api/workspaces.md).
 */
function planDetails(workspace: Workspace): ApiWorkspacePlanDetails {
  // A workspace whose plan the plans service has not announced yet has the built-in one's.
  const builtin = workspace.plan_type === 'BUSINESS' ? BUILTIN_WORKSPACE_BUSINESS : BUILTIN_WORKSPACE_STARTER;
  const announced = workspace.limits?.current?.['max_projects'];
  return {
    workspace_id: workspace.id,
    current_member_count: workspace.admin_count + workspace.member_count + workspace.guest_count,
    current_plan: workspace.plan_type === 'BUSINESS' ? 'Business' : 'Starter',
    current_plan_status: workspace.plan_type === 'BUSINESS' ? 'Active' : 'NeverSubscribed',
    downgrade_at: null,
    current_active_projects: workspace.current_active_projects,
    maximum_active_projects: typeof announced === 'number' ? announced : builtin.info.max_projects,
    price_list: [],
    is_trialing: false,
    trial_ends_at: null,
    cancel_at_period_end: false,
    has_trialed: false,
    plan_price: null,
    has_billing_portal: false,
    has_billing_portal_switch_to_annual: false,
  };
}
