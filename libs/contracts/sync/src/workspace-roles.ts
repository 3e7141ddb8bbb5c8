import { type ProjectActionGroup, projectRoleActions } from './project-roles';

/**
 * Who may do what in a workspace: the one table the workspace commands enforce (sync's
 * WorkspaceAccess) and the role_actions resource and `GET /api/v1/projects/permissions` show.
 * Role names are the public service's (sdk 17 WorkspaceRole: ADMIN, MEMBER, GUEST).
 *
 * The rules, where the spec is silent (each a guess written down in the README's workspace
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

/**
 * The group of every command that acts in a workspace, by command type (WorkspaceAccess refuses
 * a type it does not know, so a new workspace command cannot forget its row). `project_add` and
 * `project_move_to_workspace` appear here for their workspace half: making a project in the
 * workspace; `project_join` is `projects/{id}/join`.
 */
export const WORKSPACE_COMMAND_ACTION_GROUP: Readonly<Record<string, WorkspaceActionGroup>> = {
  workspace_update: 'administer',
  workspace_delete: 'administer',
  workspace_update_user: 'administer',
  workspace_delete_user: 'administer',
  workspace_invite: 'invite',
  workspace_resend_invite: 'invite',
  workspace_delete_invitation: 'invite',
  workspace_leave: 'belong',
  workspace_update_user_sidebar_preference: 'belong',
  folder_add: 'contribute',
  folder_update: 'contribute',
  folder_delete: 'contribute',
  folder_update_orders: 'contribute',
  workspace_filter_add: 'contribute',
  workspace_filter_update: 'contribute',
  workspace_filter_delete: 'contribute',
  workspace_filter_update_orders: 'contribute',
  project_add: 'contribute',
  project_move_to_workspace: 'contribute',
  project_move_to_personal: 'contribute',
  project_join: 'contribute',
};

export function workspaceRoleMay(role: WorkspaceRole, group: WorkspaceActionGroup): boolean {
  return WORKSPACE_ROLE_GROUPS[role].includes(group);
}

/**
 * In a workspace project, what a collaborator's project role allows is further bounded by their
 * place in the workspace: only its ADMINs and MEMBERs bring people in ('invite'). A GUEST, or a
 * collaborator who is no member of the workspace at all (`null`: one who stayed a collaborator
 * when the project moved into the workspace), may only work in the projects they were given,
 * whatever role they were given there: an invitation from them would make an outsider a guest
 * of a workspace they do not belong to (README, Workspaces: "a GUEST may only leave").
 */
export function workspaceCollaboratorMay(workspaceRole: WorkspaceRole | null, group: ProjectActionGroup): boolean {
  if (group !== 'invite') return true;
  return workspaceRole !== null && workspaceRoleMay(workspaceRole, 'invite');
}

/** A role's entry in role_actions and `projects/permissions`: its name and the command types it may run. */
export interface RoleActions {
  readonly name: string;
  readonly actions: ReadonlyArray<{ readonly name: string }>;
}

/** Each workspace role and the command types it may run (the workspace half of the permissions). */
export function workspaceRoleActions(): RoleActions[] {
  return WORKSPACE_ROLES.map((role) => ({
    name: role,
    actions: Object.entries(WORKSPACE_COMMAND_ACTION_GROUP)
      .filter(([, group]) => workspaceRoleMay(role, group))
      .map(([type]) => ({ name: type })),
  }));
}

/**
 * `GET /api/v1/projects/permissions` and, as its one entry, the sync `role_actions` resource (the
 * SDKs validate role_actions as an array of objects: sdk 10.5, 11 and 17 `record<string, unknown>[]`).
 */
export function rolePermissions(): { project_collaborator_actions: RoleActions[]; workspace_collaborator_actions: RoleActions[] } {
  return { project_collaborator_actions: projectRoleActions(), workspace_collaborator_actions: workspaceRoleActions() };
}
