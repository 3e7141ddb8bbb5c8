import { type ProjectActionGroup, type ProjectRole, PROJECT_OWNER_ROLE, roleMay } from './project-roles';

/**
 * Who may do what in a workspace: what each workspace role may do. Which group each command
 * needs is the command's own declaration (CommandPolicy); sync's WorkspaceAccess enforces the
 * two together, and the role_actions resource and `GET /api/v1/projects/permissions` show them.
 * Role names are the public service's (sdk 17 WorkspaceRole: ADMIN, MEMBER, GUEST).
 *
 * The rules, where the spec is silent (each a guess written down in docs/api/workspaces.md's workspace
 * section): an ADMIN runs the workspace (settings, members, roles, plan-free deletion); a MEMBER
 * creates and joins workspace projects, folders and workspace filters, and invites; a GUEST sees
 * only the projects it was invited to (share_project) and may only leave. In a workspace project
 * a workspace ADMIN has at least the project's ADMIN rights (sync-interface §5.11: workspace
 * admins may delete collaborators), whatever their own project role.
 */
export const WORKSPACE_ROLES = ['ADMIN', 'MEMBER', 'GUEST'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

export function isWorkspaceRole(value: unknown): value is WorkspaceRole {
  return typeof value === 'string' && (WORKSPACE_ROLES as readonly string[]).includes(value);
}

/** The role an invitation gives when it names none. */
export const DEFAULT_WORKSPACE_ROLE: WorkspaceRole = 'MEMBER';

/** What a workspace role may do, grouped; every workspace-scoped command belongs to exactly one group. */
/** `belong`: what every member may do (leave; their own sidebar's state of the workspace). */
export const WORKSPACE_ACTION_GROUPS = ['administer', 'contribute', 'invite', 'belong'] as const;
export type WorkspaceActionGroup = (typeof WORKSPACE_ACTION_GROUPS)[number];

const WORKSPACE_ROLE_GROUPS: Readonly<Record<WorkspaceRole, readonly WorkspaceActionGroup[]>> = {
  ADMIN: ['administer', 'contribute', 'invite', 'belong'],
  MEMBER: ['contribute', 'invite', 'belong'],
  GUEST: ['belong'],
};

export function workspaceRoleMay(role: WorkspaceRole, group: WorkspaceActionGroup): boolean {
  return WORKSPACE_ROLE_GROUPS[role].includes(group);
}

/** The roles holding `group` (whom a workspace's business of that kind is told: its admins, its full members). */
export function workspaceRolesThat(group: WorkspaceActionGroup): WorkspaceRole[] {
  return WORKSPACE_ROLES.filter((role) => workspaceRoleMay(role, group));
}

/** Whether the role runs the workspace: the workspace must keep one (the last cannot leave, be removed or be demoted). */
export function administersWorkspace(role: WorkspaceRole | null | undefined): boolean {
  return role !== null && role !== undefined && workspaceRoleMay(role, 'administer');
}

/**
 * The role that takes a seat under max_guests_per_workspace, needs the workspace's
 * is_guest_allowed, and is exempt from restrict_email_domains (a guest belongs to the projects it
 * was given, not to the organisation's domain).
 */
export const GUEST_WORKSPACE_ROLE = 'GUEST' satisfies WorkspaceRole;

export function takesGuestSeat(role: WorkspaceRole | null | undefined): boolean {
  return role === GUEST_WORKSPACE_ROLE;
}

/** Who may delete a workspace invitation (workspace_delete_invitation): its sender, or the workspace's admins. */
export function mayWithdrawWorkspaceInvitation(role: WorkspaceRole | null, isSender: boolean): boolean {
  return isSender || administersWorkspace(role);
}

/** The project role a workspace administrator acts with in the workspace's projects (at least the project's ADMIN). */
const WORKSPACE_ADMINISTRATOR_PROJECT_ROLE: ProjectRole = 'ADMIN';

/**
 * Whether someone holding `granter` may give `role` (workspace_invite's role, workspace_update_user's):
 * only a role that may do nothing the granter may not, as mayGrantRole for projects. So only an
 * ADMIN makes ADMINs, and a GUEST (who may not invite at all) gives nothing.
 */
export function mayGrantWorkspaceRole(granter: WorkspaceRole, role: WorkspaceRole): boolean {
  return workspaceRoleMay(granter, 'invite') && WORKSPACE_ROLE_GROUPS[role].every((group) => WORKSPACE_ROLE_GROUPS[granter].includes(group));
}

/**
 * The role a project member acts with: in a workspace project, a workspace ADMIN has at least the
 * project's ADMIN rights whatever their own project role (sync-interface §5.11: workspace admins
 * manage the collaborators of workspace projects); its CREATOR stays CREATOR. `workspaceRole`
 * null: a personal project, or a collaborator who is no active member of the workspace.
 */
export function effectiveProjectRole(projectRole: ProjectRole, workspaceRole: WorkspaceRole | null): ProjectRole {
  return administersWorkspace(workspaceRole) && projectRole !== PROJECT_OWNER_ROLE ? WORKSPACE_ADMINISTRATOR_PROJECT_ROLE : projectRole;
}

/**
 * In a workspace project, what a collaborator's project role allows is further bounded by their
 * place in the workspace: only its ADMINs and MEMBERs bring people in ('invite'). A GUEST, or a
 * collaborator who is no member of the workspace at all (`null`: one who stayed a collaborator
 * when the project moved into the workspace), may only work in the projects they were given,
 * whatever role they were given there: an invitation from them would make an outsider a guest
 * of a workspace they do not belong to (docs/api/workspaces.md: "a GUEST may only leave").
 */
export function workspaceCollaboratorMay(workspaceRole: WorkspaceRole | null, group: ProjectActionGroup): boolean {
  if (group !== 'invite') return true;
  return workspaceRole !== null && workspaceRoleMay(workspaceRole, 'invite');
}

/**
 * How a member stands to a project, as access decisions read it: the role they act with
 * (effectiveProjectRole), and for a workspace project (`workspaceId` set) their role in that
 * workspace (null: none).
 */
export interface ProjectStanding {
  readonly role: ProjectRole;
  readonly workspaceId: string | null;
  readonly workspaceRole: WorkspaceRole | null;
}

/**
 * Whether a member standing so may do what `group` covers in the project: their role allows it
 * and, in a workspace project, so does their place in the workspace (workspaceCollaboratorMay).
 * The rule ProjectAccess enforces for commands, for the reads that follow a command group.
 */
export function standingMay(standing: ProjectStanding, group: ProjectActionGroup): boolean {
  return roleMay(standing.role, group) && (standing.workspaceId === null || workspaceCollaboratorMay(standing.workspaceRole, group));
}
