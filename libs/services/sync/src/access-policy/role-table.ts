import {
  COLLABORATOR_ROLES,
  type DeclaredCommand,
  mayGrantRole,
  mayGrantWorkspaceRole,
  PROJECT_ACTION_GROUPS,
  PROJECT_ROLES,
  projectCommandGroups,
  roleMay,
  WORKSPACE_ACTION_GROUPS,
  WORKSPACE_ROLES,
  workspaceCommandGroups,
  workspaceRoleMay,
} from '@doable/contracts-sync';

/**
 * The "who may do what" tables of docs/api/roles.md, rendered from the commands' declared policies and the
 * roles' definitions (never written by hand: a table beside the code drifts from it). One row
 * per action group, with the command types that need it and a mark for each role that holds it;
 * then which roles each role may give (the granting commands' rule).
 */
function matrix<Role extends string, Group extends string>(roles: readonly Role[], groups: readonly Group[], commands: ReadonlyArray<readonly [string, Group]>, may: (role: Role, group: Group) => boolean): string[] {
  const lines = [`| group: commands | ${roles.join(' | ')} |`, `|---|${roles.map(() => ':-:').join('|')}|`];
  for (const group of groups) {
    const types = commands.filter(([, needed]) => needed === group).map(([type]) => `\`${type}\``);
    if (types.length === 0) continue;
    lines.push(`| **${group}**: ${types.join(', ')} | ${roles.map((role) => (may(role, group) ? '✓' : '')).join(' | ')} |`);
  }
  return lines;
}

function grantingCommands(declared: readonly DeclaredCommand[], role: 'project' | 'workspace'): string {
  return declared
    .filter(({ policy }) => policy.grants?.role === role)
    .map(({ type, policy }) => `\`${type}\` (${policy.grants!.from === 'project' ? "the project's " : ''}\`${policy.grants!.argument}\`)`)
    .join(', ');
}

export function projectRoleTable(declared: readonly DeclaredCommand[]): string {
  return [
    ...matrix(PROJECT_ROLES, PROJECT_ACTION_GROUPS, projectCommandGroups(declared), roleMay),
    '',
    `Giving a role (${grantingCommands(declared, 'project')}): only one that allows nothing the giver's own role does not.`,
    '',
    '| role | may give |',
    '|---|---|',
    ...PROJECT_ROLES.map((granter) => `| ${granter} | ${COLLABORATOR_ROLES.filter((role) => mayGrantRole(granter, role)).join(', ') || 'none'} |`),
  ].join('\n');
}

export function workspaceRoleTable(declared: readonly DeclaredCommand[]): string {
  return [
    ...matrix(WORKSPACE_ROLES, WORKSPACE_ACTION_GROUPS, workspaceCommandGroups(declared), workspaceRoleMay),
    '',
    `Giving a role (${grantingCommands(declared, 'workspace')}): only one that allows nothing the giver's own role does not; a GUEST invites no one.`,
    '',
    '| role | may give |',
    '|---|---|',
    ...WORKSPACE_ROLES.map((granter) => `| ${granter} | ${WORKSPACE_ROLES.filter((role) => mayGrantWorkspaceRole(granter, role)).join(', ') || 'none'} |`),
  ].join('\n');
}

/** The docs page's generated sections, by marker name (`<!-- name:begin -->` ... `<!-- name:end -->`). */
export function roleTables(declared: readonly DeclaredCommand[]): Record<string, string> {
  return { 'project-roles': projectRoleTable(declared), 'workspace-roles': workspaceRoleTable(declared) };
}
