/**
 * `GET /api/v1/projects/permissions`: what each project role and each workspace role may do.
 * Doable has one role in use today (the owner, CREATOR); the table says what the other roles will
 * allow once sharing and workspaces land, in the public service's role names (sdk 17
 * COLLABORATOR_ROLES and WORKSPACE_ROLES).
 */
const PROJECT_ACTIONS = {
  manage: ['project_update', 'project_delete', 'project_archive', 'project_unarchive', 'project_share', 'collaborator_remove'],
  organise: ['section_add', 'section_update', 'section_delete', 'section_move', 'section_archive'],
  edit: ['item_add', 'item_update', 'item_move', 'item_delete', 'item_reorder'],
  complete: ['item_complete', 'item_uncomplete'],
  comment: ['note_add', 'note_update', 'note_delete'],
  leave: ['project_leave'],
} as const;

type Group = keyof typeof PROJECT_ACTIONS;

const PROJECT_ROLES: ReadonlyArray<readonly [string, readonly Group[]]> = [
  ['CREATOR', ['manage', 'organise', 'edit', 'complete', 'comment']],
  ['ADMIN', ['manage', 'organise', 'edit', 'complete', 'comment', 'leave']],
  ['READ_WRITE', ['organise', 'edit', 'complete', 'comment', 'leave']],
  ['EDIT_ONLY', ['edit', 'complete', 'comment', 'leave']],
  ['COMPLETE_ONLY', ['complete', 'comment', 'leave']],
];

const WORKSPACE_ROLES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['ADMIN', ['workspace_update', 'workspace_invite', 'workspace_update_user', 'workspace_delete_user', 'project_add', 'project_join', 'folder_add']],
  ['MEMBER', ['workspace_invite', 'project_add', 'project_join']],
  ['GUEST', []],
];

const view = (name: string, actions: readonly string[]) => ({ name, actions: actions.map((action) => ({ name: action })) });

export function projectPermissions(): Record<string, unknown> {
  return {
    project_collaborator_actions: PROJECT_ROLES.map(([name, groups]) => view(name, groups.flatMap((group) => PROJECT_ACTIONS[group]))),
    workspace_collaborator_actions: WORKSPACE_ROLES.map(([name, actions]) => view(name, actions)),
  };
}
