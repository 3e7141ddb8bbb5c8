/**
 * Who may do what in a shared project: what each role may do (ROLE_GROUPS, the role's
 * definition). Which group each command needs is the command's own declaration (CommandPolicy,
 * on sync's handlers); enforcement (sync's ProjectAccess) and presentation
 * (`GET /api/v1/projects/permissions`, the role_actions resource) combine the two. Role names are the public service's (sdk 17
 * COLLABORATOR_ROLES; public-api-facts "project_update collaborator_role_default").
 *
 * Rules (sync-interface §4.2 delete_collaborator, §5.11, §7.5; the rest is the public service's
 * documented role behaviour, as far as the spec is silent):
 * - CREATOR: everything. There is exactly one, the project's owner; it cannot leave (delete the
 *   project instead) and its role cannot be changed.
 * - ADMIN: everything but deleting the project; may remove collaborators and change roles
 *   (never the CREATOR's).
 * - READ_WRITE: sections, tasks, completion, comments; may invite others (Todoist lets every
 *   member of a personal shared project invite).
 * - EDIT_ONLY: tasks, completion and comments; no sections, no invitations.
 * - COMPLETE_ONLY: completion and comments only.
 */
/** The roles a collaborator may be given: every one but CREATOR (a project has one, its owner). */
export const COLLABORATOR_ROLES = ['ADMIN', 'READ_WRITE', 'EDIT_ONLY', 'COMPLETE_ONLY'] as const;
export type CollaboratorRole = (typeof COLLABORATOR_ROLES)[number];

export const PROJECT_ROLES = ['CREATOR', ...COLLABORATOR_ROLES] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

export function isProjectRole(value: unknown): value is ProjectRole {
  return typeof value === 'string' && (PROJECT_ROLES as readonly string[]).includes(value);
}

/** The one role a project's owner holds: there is exactly one, it cannot leave, be removed or change role. */
export const PROJECT_OWNER_ROLE = 'CREATOR' satisfies ProjectRole;

export function ownsProject(role: ProjectRole | null | undefined): boolean {
  return role === PROJECT_OWNER_ROLE;
}

/** The default role of an invited collaborator (the project's `collaborator_role_default`). */
export const DEFAULT_COLLABORATOR_ROLE: CollaboratorRole = 'READ_WRITE';

/** What a role may do, grouped; every project-scoped command belongs to exactly one group. */
export const PROJECT_ACTION_GROUPS = ['delete', 'manage', 'invite', 'organise', 'edit', 'complete', 'comment', 'leave'] as const;
export type ProjectActionGroup = (typeof PROJECT_ACTION_GROUPS)[number];

const ROLE_GROUPS: Readonly<Record<ProjectRole, readonly ProjectActionGroup[]>> = {
  CREATOR: ['delete', 'manage', 'invite', 'organise', 'edit', 'complete', 'comment'],
  ADMIN: ['manage', 'invite', 'organise', 'edit', 'complete', 'comment', 'leave'],
  READ_WRITE: ['invite', 'organise', 'edit', 'complete', 'comment', 'leave'],
  EDIT_ONLY: ['edit', 'complete', 'comment', 'leave'],
  COMPLETE_ONLY: ['complete', 'comment', 'leave'],
};

export function roleMay(role: ProjectRole, group: ProjectActionGroup): boolean {
  return ROLE_GROUPS[role].includes(group);
}

/**
 * Whether someone holding `granter` may give `role` to another (share_project's role,
 * project_change_role): only a role that may do nothing the granter may not, so no one ever
 * holds more than the person who granted it held. Derived from the groups above, so a new group
 * cannot leave a hole ('leave' is everyone's but the CREATOR's, and no collaborator is CREATOR).
 */
export function mayGrantRole(granter: ProjectRole, role: ProjectRole): boolean {
  if (role === 'CREATOR') return false;
  return ROLE_GROUPS[role].every((group) => group === 'leave' || ROLE_GROUPS[granter].includes(group));
}

/** Who may delete a project invitation (delete_invitation): its sender, or whoever manages the project (CREATOR, ADMINs). */
export function mayWithdrawInvitation(role: ProjectRole, isSender: boolean): boolean {
  return isSender || roleMay(role, 'manage');
}

/** The roles `granter` may give (what a client can offer in its role picker). */
export function grantableRoles(granter: ProjectRole): CollaboratorRole[] {
  return COLLABORATOR_ROLES.filter((role) => mayGrantRole(granter, role));
}
