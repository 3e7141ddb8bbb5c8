import { holdsAnyScope, READ_SCOPES, type Scope } from '@doable/contracts-common';
import type { ObjectQuery } from './objects';
import type { ProjectActionGroup } from './project-roles';
import { type ProjectStanding, standingMay, WORKSPACE_ROLES, type WorkspaceRole } from './workspace-roles';

/**
 * Who may read what, beside the command policy (CommandPolicy says who may change what): each
 * object-query resource and each read edge that is no object query declares the scopes a token
 * needs and, inside a workspace, what a workspace role lets its holder see, down to the fields.
 * Every read path asks readDecision (and seesWorkspaceField for the fields) instead of deciding
 * for itself; the access-decisions integration spec walks these declarations against the real
 * reads, as it walks the commands' declarations against the real commands.
 *
 * Inside projects no role narrows a read of what the project holds: every active member reads
 * all of it (VISIBLE_PROJECTS, the one SQL definition of that). What is about the project's
 * people rather than in it may be narrowed by a project read group (its open invitations);
 * everything else roles narrow is in workspaces.
 */

/**
 * Projects a user (`$1`) may read: those they are an active member of. The single definition
 * every read and write of project-scoped rows goes through (sync's domain re-exports it; the
 * filter language compiles `#project` against it).
 */
export const VISIBLE_PROJECTS = `SELECT project_id FROM sync.project_members WHERE user_id = $1 AND state = 'active'`;

/**
 * VISIBLE_PROJECTS as the test of a statement that takes the rows of every project the user
 * sees (a full sync's tasks, comments, sections and reminders; a task list; a label renamed or
 * taken off every task): the memberships read once
 * into an array, then the rows of all those projects in one bitmap scan that visits each heap
 * page once. Written `IN (VISIBLE_PROJECTS)` the planner joins instead: an index scan per project
 * (a page holding tasks of five projects read five times) or, beside a large account, a scan of
 * every account's rows (the S3 account beside a 50,000-task one: 30 ms of PostgreSQL for the
 * tasks, 5.5 so; issue #48). A read of one row by id keeps IN: there the join probes one
 * membership, where the array would read them all.
 */
export function inVisibleProjects(column: string): string {
  return `${column} = ANY(ARRAY(${VISIBLE_PROJECTS}))`;
}

/** The visible projects that are live, neither archived nor deleted: where a user's active tasks are. */
export const LIVE_VISIBLE_PROJECTS = `SELECT id FROM sync.projects WHERE id IN (${VISIBLE_PROJECTS}) AND NOT is_archived AND NOT is_deleted`;

/** inVisibleProjects over the live projects only (task lists, open-task counts): read once into an array, then one scan. */
export function inLiveVisibleProjects(column: string): string {
  return `${column} = ANY(ARRAY(${LIVE_VISIBLE_PROJECTS}))`;
}

/** The workspaces a user (`$1`) reads: those they are an active member of (the read side's one definition). */
export const VISIBLE_WORKSPACES = `SELECT workspace_id FROM sync.workspace_members WHERE user_id = $1 AND state = 'active'`;

/**
 * What a workspace role lets its holder see, grouped (the read side's WORKSPACE_ACTION_GROUPS):
 * - belong: the workspace itself, its member list, folders, plan and memberships;
 * - browse: the team's projects they are not in yet (to join them);
 * - invitations: its open invitations (those who may invite see whom they invited);
 * - join_link: the workspace's `invite_code` (the join link is for those who may invite);
 * - pending_invitations: the addresses still invited, on the workspace object (its admins' to manage).
 */
export const WORKSPACE_READ_GROUPS = ['belong', 'browse', 'invitations', 'join_link', 'pending_invitations'] as const;
export type WorkspaceReadGroup = (typeof WORKSPACE_READ_GROUPS)[number];

const WORKSPACE_ROLE_READS: Readonly<Record<WorkspaceRole, readonly WorkspaceReadGroup[]>> = {
  ADMIN: ['belong', 'browse', 'invitations', 'join_link', 'pending_invitations'],
  MEMBER: ['belong', 'browse', 'invitations', 'join_link'],
  // A GUEST sees only the projects it was given and the workspace around them.
  GUEST: ['belong'],
};

/** Whether a workspace role sees `group`; `null` (no active member, or a tombstone's reader) sees nothing. */
export function workspaceRoleReads(role: WorkspaceRole | null | undefined, group: WorkspaceReadGroup): boolean {
  return role !== null && role !== undefined && WORKSPACE_ROLE_READS[role].includes(group);
}

/** The workspace roles that see `group` (what SQL that decides per row compares a role column with). */
export function workspaceRolesReading(group: WorkspaceReadGroup): WorkspaceRole[] {
  return WORKSPACE_ROLES.filter((role) => workspaceRoleReads(role, group));
}

/**
 * What a project role lets its holder see besides the project itself, each group read by those
 * who may do the project action group it names (so the read follows the command's rule, in a
 * workspace project the reader's place in the workspace included: standingMay):
 * - invitations: the project's open invitations, addresses with no account included; those who
 *   may invite (share_project, delete_invitation) see whom the project is waiting for.
 */
export const PROJECT_READ_GROUPS = ['invitations'] as const;
export type ProjectReadGroup = (typeof PROJECT_READ_GROUPS)[number];

/** The project action group each project read group follows: who may do it may read it. */
export const PROJECT_READ_ACTIONS: Readonly<Record<ProjectReadGroup, ProjectActionGroup>> = { invitations: 'invite' };

/** Whether a member standing so in a project sees `group` there; `null` (no active member) sees nothing. */
export function projectStandingReads(standing: ProjectStanding | null | undefined, group: ProjectReadGroup): boolean {
  return standing !== null && standing !== undefined && standingMay(standing, PROJECT_READ_ACTIONS[group]);
}

/** What a read reaches: the code's own tables, the reader's own account, the projects they are in, or a workspace they belong to. */
export type ReadTarget = 'policy_tables' | 'account' | 'projects' | 'workspace';

export interface ReadPolicy {
  readonly target: ReadTarget;
  /** The scopes that let a token read it: any one is enough; 'any': every authenticated token (the code's tables, no account data). */
  readonly scopes: readonly Scope[] | 'any';
  /** A read of one named workspace: the group of the reader's workspace role it needs (no active member: not found). */
  readonly workspace?: WorkspaceReadGroup;
  /** A read of one named project: the group of the reader's standing there it needs (no active member: not found). */
  readonly project?: ProjectReadGroup;
  /** A list that grows with a group: the team's projects besides the reader's own (workspace_projects). */
  readonly widens?: WorkspaceReadGroup;
  /** Fields only holders of a group see (the others read them blanked: null, or '' where a schema requires a string). */
  readonly fields?: Readonly<Record<string, WorkspaceReadGroup>>;
}

export type ObjectQueryResource = ObjectQuery['resource'];

const projects: ReadPolicy = { target: 'projects', scopes: READ_SCOPES };
const account: ReadPolicy = { target: 'account', scopes: READ_SCOPES };
const inWorkspace = (group: WorkspaceReadGroup, more: Omit<ReadPolicy, 'target' | 'scopes' | 'workspace'> = {}): ReadPolicy => ({
  target: 'workspace',
  scopes: READ_SCOPES,
  workspace: group,
  ...more,
});

/** The workspace object's fields that depend on the reader's role (sync's `workspaces` and api/v1's `workspace`). */
export const WORKSPACE_OBJECT_FIELDS: Readonly<Record<string, WorkspaceReadGroup>> = { invite_code: 'join_link', pending_invitations: 'pending_invitations' };

/**
 * Every object-query resource (api/v1 REST, REST v1/v2, MCP, the web app: ObjectQueryService)
 * and who may read it. A `Record` over the query union: a new resource does not compile until
 * it is declared here, and the read walk then covers it.
 */
export const OBJECT_READ_POLICIES: Readonly<Record<ObjectQueryResource, ReadPolicy>> = {
  tasks: projects,
  tasks_by_filter: projects,
  task: projects,
  projects,
  project: projects,
  sections: projects,
  section: projects,
  comments: projects,
  comment: projects,
  collaborators: projects,
  project_full: projects,
  project_joined: projects,
  // Doable's own (no Todoist client asks): a project's open invitations, to those who may invite there.
  project_invitations: { ...projects, project: 'invitations' },
  // The labels the tasks of the reader's projects carry.
  shared_labels: projects,
  id_mappings: projects,
  labels: account,
  label: account,
  user: account,
  productivity_stats: account,
  // With a workspace_id: that workspace's archived projects, the team's too for those who browse them.
  archived_projects_count: { ...projects, workspace: 'belong', widens: 'browse' },
  // The workspaces the reader is an active member of, each written for the reader's role there.
  workspaces: { target: 'workspace', scopes: READ_SCOPES, fields: WORKSPACE_OBJECT_FIELDS },
  workspace: inWorkspace('belong', { fields: WORKSPACE_OBJECT_FIELDS }),
  workspace_users: inWorkspace('belong'),
  workspace_plan_details: inWorkspace('belong'),
  workspace_membership: inWorkspace('belong'),
  workspace_projects: inWorkspace('belong', { widens: 'browse' }),
  folders: inWorkspace('belong'),
  folder: inWorkspace('belong'),
  // Unnamed: the invitations of every workspace the reader may see them in. By its secret: the addressee's own.
  workspace_invitations: inWorkspace('invitations'),
  workspace_invitation: inWorkspace('invitations'),
  role_permissions: { target: 'policy_tables', scopes: 'any' },
};

/**
 * The reads that are no object query, each with the scopes a token needs (any one):
 * the sync read, the push socket (when data changes is data too), activity, completed and
 * archived lists, templates' export, the first generation's reads, listing uploads, backups.
 */
export const EDGE_READ_POLICIES = {
  sync: account,
  push: account,
  activity: account,
  completed: projects,
  archived: projects,
  templates: projects,
  first_generation: projects,
  uploads: account,
  // `backups:read` lists and downloads backups on its own; a token that may read data may too.
  backups: { target: 'account', scopes: ['backups:read', ...READ_SCOPES] },
} as const satisfies Readonly<Record<string, ReadPolicy>>;
export type EdgeRead = keyof typeof EDGE_READ_POLICIES;

export type ReadResource = ObjectQueryResource | EdgeRead;

export function readPolicyOf(resource: ReadResource): ReadPolicy {
  const edgeReads: Readonly<Record<EdgeRead, ReadPolicy>> = EDGE_READ_POLICIES;
  return Object.hasOwn(OBJECT_READ_POLICIES, resource) ? OBJECT_READ_POLICIES[resource as ObjectQueryResource] : edgeReads[resource as EdgeRead];
}

/** How a reader stands to what it reads, as far as the read policy asks. */
export interface ReaderStanding {
  /** The token's scopes; omitted where its edge already asked for this resource (ObjectsService, before any query runs). */
  readonly scopes?: readonly Scope[];
  /**
   * The read asks only for what the request's own commands just made: a token that may run the
   * command (task:add) is answered what it made, without reading anything else.
   */
  readonly readsOwnCreation?: boolean;
  /** For a read of one named workspace: the reader's role there; null: no active member (undefined: not asked yet). */
  readonly workspaceRole?: WorkspaceRole | null;
  /** For a read of one named project: how the reader stands there; null: no active member (undefined: not asked yet). */
  readonly projectStanding?: ProjectStanding | null;
}

/** 'scope': the token lacks the scopes; 'not_found': no member of the workspace or project named (as if it did not exist); 'forbidden': a member whose role does not see it. */
export type ReadDecision = 'ok' | 'scope' | 'not_found' | 'forbidden';

/** The one evaluation of the read policy: may this reader read `resource` (in the workspace or project named, when one is)? */
export function readDecision(resource: ReadResource, reader: ReaderStanding): ReadDecision {
  const policy = readPolicyOf(resource);
  if (reader.scopes !== undefined && policy.scopes !== 'any' && !reader.readsOwnCreation && !holdsAnyScope({ scopes: reader.scopes }, policy.scopes)) return 'scope';
  if (policy.project !== undefined && reader.projectStanding !== undefined) {
    if (reader.projectStanding === null) return 'not_found';
    return projectStandingReads(reader.projectStanding, policy.project) ? 'ok' : 'forbidden';
  }
  if (policy.workspace === undefined || reader.workspaceRole === undefined) return 'ok';
  if (reader.workspaceRole === null) return 'not_found';
  return workspaceRoleReads(reader.workspaceRole, policy.workspace) ? 'ok' : 'forbidden';
}

/** The scopes a refusal names (`required_scopes`). */
export function readScopes(resource: ReadResource): readonly Scope[] {
  const { scopes } = readPolicyOf(resource);
  return scopes === 'any' ? [] : scopes;
}

/** Whether a reader with this workspace role sees `field` of `resource` (a field no rule names: everyone who reads it). */
export function seesWorkspaceField(resource: ObjectQueryResource, field: string, role: WorkspaceRole | null | undefined): boolean {
  const group = OBJECT_READ_POLICIES[resource].fields?.[field];
  return group === undefined || workspaceRoleReads(role, group);
}

/** Whether a list of a workspace's objects includes the team's besides the reader's own (workspace_projects, archived counts). */
export function readWidens(resource: ObjectQueryResource, role: WorkspaceRole | null | undefined): boolean {
  const group = OBJECT_READ_POLICIES[resource].widens;
  return group !== undefined && workspaceRoleReads(role, group);
}
