import { projectRoleActions } from '@doable/contracts-sync';

/**
 * `GET /api/v1/projects/permissions`: what each project role and each workspace role may do.
 * The project roles come from the table sync enforces (contracts-sync project-roles), so what
 * is shown is what is allowed. Workspace roles say what they will allow once workspaces land,
 * in the public service's role names (sdk 17 WORKSPACE_ROLES).
 */
const WORKSPACE_ROLES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['ADMIN', ['workspace_update', 'workspace_invite', 'workspace_update_user', 'workspace_delete_user', 'project_add', 'project_join', 'folder_add']],
  ['MEMBER', ['workspace_invite', 'project_add', 'project_join']],
  ['GUEST', []],
];

const view = (name: string, actions: readonly string[]) => ({ name, actions: actions.map((action) => ({ name: action })) });

export function projectPermissions(): Record<string, unknown> {
  return {
    project_collaborator_actions: projectRoleActions(),
    workspace_collaborator_actions: WORKSPACE_ROLES.map(([name, actions]) => view(name, actions)),
  };
}
