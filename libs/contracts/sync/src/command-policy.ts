import { holdsAnyScope, type Scope } from '@doable/contracts-common';
import type { PlanQuantity } from '@doable/contracts-plans';
import type { ProjectActionGroup } from './project-roles';
import type { WorkspaceActionGroup } from './workspace-roles';

/**
 * What a Sync API command is, as far as who may run it goes: declared by the command's own
 * handler (sync's CommandHandler.policy), so the rule lives with the thing it governs. Every
 * table that used to be kept beside the handlers (the action groups by command, the
 * membership-change sets, the scope rules, the role_actions resource, the role tables of docs/api/roles.md)
 * is derived from these declarations (sync's CommandPolicies).
 */
export interface CommandPolicy {
  /** What it acts on; no project and no workspace and no addressee: the user's own objects, no role needed. */
  readonly target: CommandTarget;
  /** The OAuth scopes that let a token run it: any one of them is enough (sync-interface §5.4). */
  readonly scopes: readonly Scope[];
  /**
   * Arguments only the account's own personal token may send (user_update's email and password:
   * an application with data:read_write could otherwise set a password and take the account over).
   */
  readonly personalTokenArgs: readonly string[];
  /** Whose memberships it may change: the roles read so far in a request are read again after it. */
  readonly membership: MembershipChange;
  /** The role it gives someone, and where it reads it; absent: it grants none. */
  readonly grants?: RoleGrant;
  /** The plan quantities it may use up (refused with their coded 403 when there is no room). */
  readonly quantities: readonly PlanQuantity[];
  /**
   * Paths of this command that the public service names as commands of their own and that need
   * another role (workspace_update changing only the caller's sidebar state is
   * workspace_update_user_sidebar_preference): each is checked as, and listed as, a command of
   * its own with this target and the rest of this declaration.
   */
  readonly variants: Readonly<Record<string, CommandTarget>>;
}

export interface CommandTarget {
  /** The group of a project role it needs in the project it acts in. */
  readonly project?: ProjectActionGroup;
  /** The group of a workspace role it needs in the workspace it acts in (project_add: its workspace half). */
  readonly workspace?: WorkspaceActionGroup;
  /**
   * Answered by the person an invitation or a join link is addressed to, who is no member yet:
   * the invitation's secret, the link or the address's domain is the right, not a role.
   */
  readonly addressee?: true;
}

export type MembershipChange = 'none' | 'projects' | 'workspaces' | 'projects_and_workspaces';

export interface RoleGrant {
  /** Which kind of role it gives. */
  readonly role: 'project' | 'workspace';
  /** The argument naming the role; `from: 'project'`: the project's own field of that name (project_join). */
  readonly argument: string;
  readonly from: 'args' | 'project';
}

/** The scope rules of sync-interface §5.4, by what a command does. */
export const DATA_READ_WRITE: readonly Scope[] = ['data:read_write'];
/** Adding a task: `task:add` alone is enough (it adds without seeing anything). */
export const TASK_ADD: readonly Scope[] = ['task:add', 'data:read_write'];
/** Deleting projects (a workspace's deletion deletes its projects: a guess where §5.4 is silent). */
export const PROJECT_DELETE: readonly Scope[] = ['project:delete'];
/** Deleting tasks, labels, filters, folders and workspace filters. */
export const DATA_DELETE: readonly Scope[] = ['data:delete'];

/**
 * The writes that are no Sync API command (they run no handler that could declare them), each with
 * the scopes a token needs, any one being enough: adding and deleting uploads, changing the
 * avatar (as user_update does), importing an account.
 */
export const EDGE_WRITE_SCOPES = {
  upload_add: DATA_READ_WRITE,
  upload_delete: DATA_DELETE,
  avatar_change: DATA_READ_WRITE,
  account_import: DATA_READ_WRITE,
} as const satisfies Readonly<Record<string, readonly Scope[]>>;
export type EdgeWrite = keyof typeof EDGE_WRITE_SCOPES;

/** Whether the token may make this write. */
export function mayWriteAt(principal: { readonly scopes: readonly Scope[] }, write: EdgeWrite): boolean {
  return holdsAnyScope(principal, EDGE_WRITE_SCOPES[write]);
}

export interface PolicyOptions {
  /** Default DATA_READ_WRITE. */
  readonly scopes?: readonly Scope[];
  readonly personalTokenArgs?: readonly string[];
  readonly membership?: MembershipChange;
  readonly grants?: RoleGrant;
  readonly quantity?: PlanQuantity | readonly PlanQuantity[];
  readonly variants?: Readonly<Record<string, CommandTarget>>;
}

function policy(target: CommandTarget, options: PolicyOptions): CommandPolicy {
  const quantity = options.quantity;
  return {
    target,
    scopes: options.scopes ?? DATA_READ_WRITE,
    personalTokenArgs: options.personalTokenArgs ?? [],
    membership: options.membership ?? 'none',
    ...(options.grants ? { grants: options.grants } : {}),
    quantities: quantity === undefined ? [] : typeof quantity === 'string' ? [quantity] : quantity,
    variants: options.variants ?? {},
  };
}

/** A command inside a project that needs `group` of the caller's project role; `workspace`: and that of their workspace role. */
export function inProject(group: ProjectActionGroup, options: PolicyOptions & { readonly workspace?: WorkspaceActionGroup } = {}): CommandPolicy {
  return policy({ project: group, ...(options.workspace ? { workspace: options.workspace } : {}) }, options);
}

/** A command inside a workspace that needs `group` of the caller's workspace role. */
export function inWorkspace(group: WorkspaceActionGroup, options: PolicyOptions = {}): CommandPolicy {
  return policy({ workspace: group }, options);
}

/** A command on the caller's own objects (labels, filters, settings, their view of a project): no role. */
export function ownObjects(options: PolicyOptions = {}): CommandPolicy {
  return policy({}, options);
}

/** A command answered by whom an invitation or a join link is addressed (see CommandTarget.addressee). */
export function byAddressee(options: PolicyOptions = {}): CommandPolicy {
  return policy({ addressee: true }, options);
}

/** A role read from the command's argument `argument`. */
export function grantsFromArgument(role: RoleGrant['role'], argument: string): RoleGrant {
  return { role, argument, from: 'args' };
}

/** Whether it may leave the roles read earlier in a request wrong. */
export function changesProjectMemberships(policy: CommandPolicy): boolean {
  return policy.membership === 'projects' || policy.membership === 'projects_and_workspaces';
}

export function changesWorkspaceMemberships(policy: CommandPolicy): boolean {
  return policy.membership === 'workspaces' || policy.membership === 'projects_and_workspaces';
}

/** A command type with its declaration: the registry's entry, what the derived tables are built from. */
export interface DeclaredCommand {
  readonly type: string;
  readonly policy: CommandPolicy;
}
