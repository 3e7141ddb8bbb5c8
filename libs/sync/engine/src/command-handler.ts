import type { EventSubject, Principal } from '@doable/contracts-common';
import type { CommandPolicy, EventObjectType, ObjectEvent, ProjectRole, WorkspaceRole } from '@doable/contracts-sync';
import type { Tx } from '@doable/shared-runtime';
import type { PlanGate } from '@doable/sync-domain';
import type { PerIdStatus } from './command-status';

/**
 * Renders a canonical object in the shape events carry (api/v1): given to the engine by the
 * service (the dialects sit above the engine), so a command's events hold the object as it left it.
 */
export type EventObjectWriter = (objectType: EventObjectType, object: object) => Record<string, unknown> | undefined;
export const EVENT_OBJECT_WRITER = Symbol('EVENT_OBJECT_WRITER');

/** What a command sees while it runs: its transaction, its user, the version it stamps. */
export interface CommandContext {
  readonly tx: Tx;
  readonly userId: string;
  /** Stamp every row this command changes with this version. */
  readonly version: string;
  /** A real id or a temp id (from this request or an earlier one) to a real id. */
  resolveId(value: unknown, argument: string): Promise<string>;
  /** Declares the projects whose content changed: all their members will see the change. */
  touch(...projectIds: string[]): void;
  /** Declares users who must see the change though they are no longer members (a removed collaborator). */
  touchUsers(...userIds: string[]): void;
  /** Declares workspaces whose own data changed (the workspace, its members, folders, filters): all their members will see it. */
  touchWorkspace(...workspaceIds: string[]): void;
  /**
   * Refuses the command unless the user may run it in this project: PROJECT_NOT_FOUND for a
   * non-member, FORBIDDEN for a role that does not allow the group the command's policy
   * declares (CommandPolicies). Every loader of a project-scoped object calls it; answers the role.
   * `asCommand`: check as that command type instead (a command that, on one of its paths, does
   * what another command does in a project: project_add under a shared parent places it as
   * project_move would).
   */
  requireAccess(projectId: string, asCommand?: string): Promise<ProjectRole>;
  /**
   * The workspace of a project requireAccess read in this request (null: a personal project),
   * read by the same query; undefined when none did. Saves the object events a read.
   */
  knownWorkspaceOf(projectId: string): string | null | undefined;
  /**
   * Refuses the command unless the user may run it in this workspace: WORKSPACE_NOT_FOUND for a
   * non-member, FORBIDDEN for a role that does not allow the group its policy declares
   * (CommandPolicies). Every workspace command calls it; answers the role.
   * `asCommand`: check as that command type (project_add's workspace half).
   */
  requireWorkspaceAccess(workspaceId: string, asCommand?: string): Promise<WorkspaceRole>;
  /**
   * Runs the work of each object on its own (a nested savepoint each): an object refused with a
   * DomainError is undone alone (its touches too) and the others stay. Answers each object's
   * outcome by the key given. Anything else thrown (or a transient refusal) fails the command.
   */
  eachObject<T>(entries: ReadonlyArray<readonly [key: string, value: T]>, work: (value: T) => Promise<void>): Promise<PerIdStatus>;
  /**
   * The plans of the users the command acts for: features (requireFeature) and counted
   * quantities (requireRoom, room), refused with their coded 403 (plans/plan-gate.ts).
   */
  readonly plan: PlanGate;
  /**
   * An event to record only if this command ends refused (a DomainError that is remembered):
   * emitted after the command's savepoint has undone everything it wrote, so it is all the
   * refusal leaves behind (share_project over the collaborator limit tells the inviter and the
   * owner: SyncEvents.shareInvitationBlocked). Not emitted when the command succeeds, nor for a
   * uuid already executed (its remembered outcome is replayed without running it).
   */
  emitOnRefusal<P>(event: EventSubject<P>, payload: P): void;
  /** Renders the objects a command's events carry (recordObjectEvents); absent: events carry none. */
  readonly writeEventObject?: EventObjectWriter;
  /**
   * The request's object events so far (recordObjectEvents appends to it), written as one v2
   * event at the end of the request's transaction; the executor drops what a command or an
   * object its savepoint undoes had appended. Absent: recordObjectEvents writes them at once.
   */
  readonly pendingObjectEvents?: ObjectEvent[];
  /** The acting user's timezone and week settings (due dates are computed in them). */
  readonly user: { readonly timezone: string; readonly startDay: number; readonly nextWeek: number; readonly inboxProjectId: string };
}

export interface CommandOutcome {
  /** The id of the object the command created; mapped from the command's temp_id. */
  readonly createdId?: string;
  /** Per-object outcomes of a command over several objects (spec §7.2); see PerObjectOutcome. */
  readonly perObject?: PerObjectOutcome;
}

/**
 * How a command over several objects answers. `always`: the map of each id's outcome, as the
 * legacy `ids` array form did. `when-refused`: plain `ok` when every object succeeded, the map only
 * when one was refused; for the id maps and lists modern clients send, whose SDKs validate a
 * sync_status value as `ok` or an error object only.
 */
export interface PerObjectOutcome {
  readonly statuses: PerIdStatus;
  readonly answer: 'always' | 'when-refused';
}

/** One command type of the Sync API. Runs inside the request's transaction (its own savepoint); throws DomainErrors. */
export interface CommandHandler {
  readonly type: string;
  /**
   * What the command is as far as who may run it goes (contracts-sync CommandPolicy): the role it
   * needs where it acts, its scopes, the memberships it changes, the role it grants, the plan
   * quantities it uses. Required, so a new command cannot compile without saying; every access
   * table (CommandPolicies) is derived from these.
   */
  readonly policy: CommandPolicy;
  /**
   * Work another service owns (credentials in auth-oauth, notification state), done BEFORE the
   * request's transaction: no transaction is held across a network call. What it answers is
   * handed to run(); what it throws is the command's refusal. Only commands that need it have it.
   * `uuid` is the command's: two copies of one request may both get here before either commits,
   * so the other service must run the work once per uuid (a late copy would undo later commands).
   */
  prepare?(principal: Principal, args: Record<string, unknown>, uuid: string): Promise<unknown>;
  run(context: CommandContext, args: Record<string, unknown>, prepared?: unknown): Promise<CommandOutcome>;
  /**
   * Commands of this type that come one after another may be written together, in one statement
   * (a request's optimistic pass only, see WriteGroup): plan() checks one command and returns
   * its write, reading at most, or undefined when it must run() alone; a plan that throws runs
   * alone too. writeAll() writes the plans in order and answers each one's outcome, or
   * undefined for one run() would have refused. For every command, the two together must leave
   * what run() would have left, the commands run one after another.
   */
  plan?(context: CommandContext, args: Record<string, unknown>): Promise<unknown>;
  writeAll?(context: CommandContext, plans: readonly unknown[]): Promise<Array<CommandOutcome | undefined>>;
}

/** The Sync API's commands: what a client may send. */
export const COMMAND_HANDLERS = Symbol('COMMAND_HANDLERS');
/** Commands this service runs for itself (CommandExecutor.runInternal); no client can send them. */
export const INTERNAL_COMMAND_HANDLERS = Symbol('INTERNAL_COMMAND_HANDLERS');
