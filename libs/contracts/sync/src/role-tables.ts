// The role tables clients see, derived from the commands' declarations (CommandPolicy.target):
// which command types each project and workspace role may run.
import type { DeclaredCommand } from './command-policy';
import { PROJECT_ACTION_GROUPS, PROJECT_ROLES, type ProjectActionGroup, type ProjectRole, roleMay } from './project-roles';
import { WORKSPACE_ACTION_GROUPS, WORKSPACE_ROLES, type WorkspaceActionGroup, type WorkspaceRole, workspaceRoleMay } from './workspace-roles';

/** A role's entry in role_actions and `projects/permissions`: its name and the command types it may run. */
export interface RoleActions<Role extends string = string> {
  readonly name: Role;
  readonly actions: ReadonlyArray<{ readonly name: string }>;
}

/** The declared commands with a group of one kind, each with its group, in the groups' order and then the declarations'. */
function commandGroups<Group extends string>(declared: Iterable<DeclaredCommand>, groupOf: (command: DeclaredCommand) => Group | undefined, order: readonly Group[]) {
  const entries: Array<readonly [type: string, group: Group]> = [];
  for (const command of declared) {
    const group = groupOf(command);
    if (group) entries.push([command.type, group]);
  }
  return entries.sort(([, a], [, b]) => order.indexOf(a) - order.indexOf(b));
}

function roleActions<Role extends string, Group>(roles: readonly Role[], groups: ReadonlyArray<readonly [string, Group]>, may: (role: Role, group: Group) => boolean): Array<RoleActions<Role>> {
  return roles.map((role) => ({ name: role, actions: groups.filter(([, group]) => may(role, group)).map(([type]) => ({ name: type })) }));
}

/**
 * The declared commands that act in a project, each with the group it needs, in the order of
 * PROJECT_ACTION_GROUPS and then of the declarations (the order the permissions list them in).
 */
export function projectCommandGroups(declared: Iterable<DeclaredCommand>): Array<readonly [type: string, group: ProjectActionGroup]> {
  return commandGroups(declared, ({ policy }) => policy.target.project, PROJECT_ACTION_GROUPS);
}

/** `GET /api/v1/projects/permissions`'s project half: each role and the declared command types it may run. */
export function projectRoleActions(declared: Iterable<DeclaredCommand>): Array<RoleActions<ProjectRole>> {
  return roleActions(PROJECT_ROLES, projectCommandGroups(declared), roleMay);
}

/** The declared commands that act in a workspace, with the group each needs, in WORKSPACE_ACTION_GROUPS order. */
export function workspaceCommandGroups(declared: Iterable<DeclaredCommand>): Array<readonly [type: string, group: WorkspaceActionGroup]> {
  return commandGroups(declared, ({ policy }) => policy.target.workspace, WORKSPACE_ACTION_GROUPS);
}

/** Each workspace role and the command types it may run (the workspace half of the permissions). */
export function workspaceRoleActions(declared: Iterable<DeclaredCommand>): Array<RoleActions<WorkspaceRole>> {
  return roleActions(WORKSPACE_ROLES, workspaceCommandGroups(declared), workspaceRoleMay);
}

/**
 * `GET /api/v1/projects/permissions` and, as its one entry, the sync `role_actions` resource (the
 * SDKs validate role_actions as an array of objects: sdk 10.5, 11 and 17 `record<string, unknown>[]`).
 */
export interface RolePermissions {
  project_collaborator_actions: RoleActions[];
  workspace_collaborator_actions: RoleActions[];
}

export function rolePermissions(declared: readonly DeclaredCommand[]): RolePermissions {
  return { project_collaborator_actions: projectRoleActions(declared), workspace_collaborator_actions: workspaceRoleActions(declared) };
}
