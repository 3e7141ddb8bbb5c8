import { DomainError, todoistErrorBody } from '@doable/shared-errors';
import { currentCorrelationId, inSpan, LOGGER, type Logger } from '@doable/shared-logging';
import { Database, type Tx } from '@doable/shared-runtime';
import { infrastructureUnavailable, isInfrastructureFailure } from '@doable/shared-transport';
import { findUnstorableText, isObjectId, type Principal, type UnstorableText } from '@doable/contracts-common';
import type { ObjectEvent } from '@doable/contracts-sync';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { CountLockBusy, PlanGate, PlanLimitsRepository, ProjectMembersRepository, UserProfileRepository, waitForCountLock, WorkspaceMembersRepository } from '@doable/sync-domain';
import { CommandBatchLog } from './command-batch-log';
import type { CommandStatus } from './command-status';
import { COMMAND_HANDLERS, type CommandContext, type CommandHandler, type CommandOutcome, EVENT_OBJECT_WRITER, type EventObjectWriter, INTERNAL_COMMAND_HANDLERS } from './command-handler';
import { eachObject, TRANSIENT_CODES } from './each-object';
import { writeObjectEvents } from './object-events';
import { nothingTouched, RequestChange, type Touched } from './request-change';
import { CommandPolicies } from './command-policies';
import { ProjectAccess } from './project-access';
import { WorkspaceAccess } from './workspace-access';
import { OptimisticCommands, OptimisticPassFailed } from './optimistic-pass';
import { CommandSavepoints, type CommandGuard } from './savepoint';
import { commandRefusal, mayRunCommand } from './scopes';
import type { SyncCommand } from './sync-request';
import { lockUser, type UserChange } from './user-change';
import { UserTurns } from './user-turns';
import { WriteGroup } from './write-group';

export interface CommandResults {
  readonly syncStatus: Record<string, CommandStatus>;
  readonly tempIdMapping: Record<string, string>;
}

/**
 * A map keyed by what clients chose (uuids, temp ids): without a prototype, so a key named
 * `__proto__` or `constructor` is an entry like any other, never Object.prototype's.
 */
function keyedByClient<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>;
}

/** A command argument that breaks the text rule, named by its top-level key. */
function unstorableArgument(found: UnstorableText): DomainError {
  const argument = found.path.split('.')[0];
  return new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${argument}`, { argument, explanation: `Text ${found.reason}` });
}

/** Commands that rewrite the user row the later commands of a request read their settings from. */
const PROFILE_COMMANDS: ReadonlySet<string> = new Set(['user_update', 'user_settings_update', 'update_goals']);

/** PostgreSQL's deadlock and serialization failures: the transaction was rolled back whole. */
const RETRYABLE_CODES: ReadonlySet<string> = new Set(['40P01', '40001']);
const TRANSACTION_ATTEMPTS = 3;
/** How many times a request waits for a plan count's lock and runs again (each wait is another request committing). */
const COUNT_LOCK_WAITS = 100;

/** The count lock a command found taken (see CountLockBusy), whichever pass it ran in. */
function busyCountLock(err: unknown): CountLockBusy | undefined {
  const cause = err instanceof OptimisticPassFailed ? err.commandError : err;
  return cause instanceof CountLockBusy ? cause : undefined;
}

/**
 * A short random pause before a transaction PostgreSQL rolled back runs again. At once, it would
 * take its user's row before the transaction that won could (raising the high-water marks of a
 * shared project's members, it waits on that row), then wait on what the winner holds (a plan
 * limit's lock on the project), and lose the same deadlock again; paused, it finds the winner done.
 */
function beforeRetry(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, attempt * (20 + Math.random() * 30)));
}

function isRetryable(err: unknown): boolean {
  return typeof err === 'object' && err !== null && RETRYABLE_CODES.has(String((err as { code?: unknown }).code));
}

/** A raw failure of the infrastructure (a coded remote outage stays a per-command, unremembered refusal). */
function isOutage(err: unknown): boolean {
  return !(err instanceof DomainError) && isInfrastructureFailure(err);
}

/**
 * A command whose remote work found its service down fails the whole request with that 503,
 * before its segment's transaction: one rule for every outage (HTTP 503 with Retry-After, never
 * HTTP 200 with a per-command 503), so a client retries the request instead of dropping a
 * command. Segments already committed replay by their uuids on that retry; nothing runs twice.
 */
function throwIfAServiceIsDown(prepared: ReadonlyMap<string, Preparation>): void {
  for (const preparation of prepared.values()) {
    if (!preparation.ok && preparation.error instanceof DomainError && preparation.error.code === 'SERVICE_UNAVAILABLE') throw preparation.error;
  }
}

/** The handlers a run may use, by command type. */
type Handlers = ReadonlyMap<string, CommandHandler>;

/** A command's remote work, done before its transaction (see CommandHandler.prepare). */
type Preparation = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

interface BatchOutcome {
  readonly statuses: Map<string, CommandStatus>;
  readonly tempIdMapping: Record<string, string>;
}

/** An event a command asked for should it be refused (CommandContext.emitOnRefusal), ready to record. */
type RefusalEvent = () => Promise<unknown>;

/** What the commands of one request share inside its transaction. */
interface Batch {
  readonly tx: Tx;
  readonly userId: string;
  /** The registry this run's commands are looked up in (the public one, or the internal one). */
  readonly handlers: Handlers;
  readonly log: CommandBatchLog;
  readonly change: RequestChange;
  /** Savepoints, or none in the optimistic pass. */
  readonly guard: CommandGuard;
  /** temp id -> real id, from this request's commands and the ones it replays. */
  readonly tempIdMapping: Record<string, string>;
  /** Remote work already done for commands of this batch, by uuid. */
  readonly prepared: ReadonlyMap<string, Preparation>;
  /** The optimistic pass's commands waiting to be written together; none with savepoints. */
  readonly group: WriteGroup | undefined;
  /** The user's roles in the projects the commands act in (see ProjectAccess). */
  readonly access: ProjectAccess;
  /** The user's roles in the workspaces the commands act in (see WorkspaceAccess). */
  readonly workspaceAccess: WorkspaceAccess;
  /** The plans the commands are checked against, read once per request (see PlanGate). */
  readonly plan: PlanGate;
  /** The object events of the commands that succeeded so far, written as one v2 event before COMMIT. */
  readonly objectEvents: ObjectEvent[];
}

/** A command that ran: `ok`, or (spec §7.2) its objects' outcomes, as the command asked them answered. */
function statusOf(outcome: CommandOutcome): CommandStatus {
  const perObject = outcome.perObject;
  if (!perObject) return 'ok';
  if (perObject.answer === 'always' || Object.values(perObject.statuses).some((status) => status !== 'ok')) return perObject.statuses;
  return 'ok';
}

function hasRemoteWork(handlers: Handlers, command: SyncCommand): boolean {
  return typeof handlers.get(command.type)?.prepare === 'function';
}

/**
 * Runs a request's commands in order in ONE transaction, each inside its own savepoint: a
 * failing command rolls back only itself and its refusal is recorded; the others commit. The
 * transaction first locks the user's row, which orders the user's versions by commit and makes
 * two racing copies of one request run each command once (the second sees the first's log).
 * A uuid already executed is not run again; its stored outcome is replayed. Outcomes are
 * reported only once the transaction has committed: if it fails, no command is reported ok.
 * A command over several objects (an `ids` array, an order map) runs each in a savepoint nested
 * in its own (CommandContext.eachObject) and answers per id (spec §7.2); that answer is stored
 * and replayed like any other.
 * The savepoints cost a round trip per command, so a request first runs without them (the
 * optimistic pass, see OptimisticCommands); only when one of its commands fails is it rolled
 * back and run again with them. Either way, what commits is what a run with savepoints commits.
 * In the optimistic pass, consecutive commands whose handler can write several at once (an
 * item_add run, see WriteGroup) are written in one statement.
 */
@Injectable()
export class CommandExecutor {
  private readonly handlers: Handlers;
  private readonly internalHandlers: Handlers;
  /**
   * Every command's declared policy (the public and the internal handlers'): the one registry the
   * access checks, the scope checks and the role tables shown to clients read. Built here from the
   * same handlers, so a hand-built executor (the specs') checks what the module's does.
   */
  readonly policies: CommandPolicies;

  /** Each user's command transactions, one at a time in this process (see UserTurns). */
  private readonly turns = new UserTurns();

  constructor(
    private readonly database: Database,
    private readonly profiles: UserProfileRepository,
    @Inject(COMMAND_HANDLERS) handlers: CommandHandler[],
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(INTERNAL_COMMAND_HANDLERS) internalHandlers: CommandHandler[],
    private readonly members: ProjectMembersRepository,
    private readonly planLimits: PlanLimitsRepository,
    private readonly workspaceMembers: WorkspaceMembersRepository,
    // The api/v1 writers, from above the engine; a spec's hand-built executor records events without objects.
    @Optional() @Inject(EVENT_OBJECT_WRITER) private readonly eventObjectWriter?: EventObjectWriter,
  ) {
    this.handlers = new Map(handlers.map((handler) => [handler.type, handler]));
    this.internalHandlers = new Map(internalHandlers.map((handler) => [handler.type, handler]));
    this.policies = new CommandPolicies([...handlers, ...internalHandlers]);
  }

  /**
   * Refuses (FORBIDDEN) a command the token may not run, as its declaration says: for the
   * callers that do work of their own before running it (quick add parses, a template import
   * reads), so a token that may not run it is refused before that work.
   */
  requirePermitted(principal: Principal, commandType: string, args: Readonly<Record<string, unknown>> = {}): void {
    const policy = this.policies.of(commandType);
    if (!mayRunCommand(principal, policy, args)) throw commandRefusal(commandType, policy, args);
  }

  /** A client's commands (the Sync API, the REST dialects): only the public command types. */
  run(principal: Principal, commands: readonly SyncCommand[]): Promise<CommandResults> {
    return this.execute(principal, commands, this.handlers);
  }

  /**
   * One command of this service's own (quick add), through the same steps as a client's: the
   * text rule, scopes, the user's lock, one version, a savepoint, the uuid log, the deadlock retry.
   * Why a second entry and a second registry rather than an `internal` flag on the handler: the
   * public path then cannot reach an internal type at all (a client sending one gets
   * UNKNOWN_COMMAND, as for any type it does not know), without a check to remember at each of
   * the places a handler is looked up, and whatever reads COMMAND_HANDLERS as the list of the
   * Sync API's commands (the fuzz suite, for one) sees only those.
   */
  runInternal(principal: Principal, command: SyncCommand): Promise<CommandResults> {
    return this.execute(principal, [command], this.internalHandlers);
  }

  /** The request's commands as one span (its transaction, and the events it writes), each command a child span. */
  private execute(principal: Principal, commands: readonly SyncCommand[], handlers: Handlers): Promise<CommandResults> {
    return inSpan('commands', { attributes: { 'doable.commands.count': commands.length } }, () => this.executeAll(principal, commands, handlers));
  }

  private async executeAll(principal: Principal, commands: readonly SyncCommand[], handlers: Handlers): Promise<CommandResults> {
    // Refused before anything runs, and not remembered: the same uuid may be retried with a token that may run it.
    const outcome = { statuses: new Map<string, CommandStatus>(), tempIdMapping: keyedByClient<string>() };
    // Arguments no statement could store are refused before any work (a credential change
    // included), and not remembered: nothing ran.
    for (const command of commands) {
      const unstorable = findUnstorableText(command.args);
      if (unstorable) outcome.statuses.set(command.uuid, { ...todoistErrorBody(unstorableArgument(unstorable)) });
    }
    const runnable = commands.filter((command) => !outcome.statuses.has(command.uuid) && mayRunCommand(principal, this.policies.of(command.type), command.args));
    for (const segment of this.segments(runnable, handlers)) {
      const prepared = await this.prepare(principal, segment, handlers);
      throwIfAServiceIsDown(prepared);
      const done = await this.runInOneTransaction(principal.userId, segment, prepared, handlers);
      done.statuses.forEach((status, uuid) => outcome.statuses.set(uuid, status));
      Object.assign(outcome.tempIdMapping, done.tempIdMapping);
    }
    const syncStatus = keyedByClient<CommandStatus>();
    for (const command of commands) {
      syncStatus[command.uuid] = outcome.statuses.get(command.uuid) ?? {
        ...todoistErrorBody(commandRefusal(command.type, this.policies.of(command.type), command.args)),
      };
    }
    return { syncStatus, tempIdMapping: outcome.tempIdMapping };
  }

  /**
   * The request's transaction. Two requests of users who share a project can deadlock when each
   * raises the other's high-water mark at its end; PostgreSQL then aborts one. Nothing of it was
   * written, so it runs again (a bounded number of times) instead of failing every command.
   */
  private async runInOneTransaction(userId: string, commands: readonly SyncCommand[], prepared: ReadonlyMap<string, Preparation>, handlers: Handlers): Promise<BatchOutcome> {
    let optimistic = true;
    let attempt = 1;
    let countLockWaits = 0;
    for (;;) {
      try {
        // A turn per user before a connection is taken (UserTurns: a burst of one user's requests
        // must not hold the pool while they wait for that user's row).
        return await this.turns.run(userId, () => this.database.transaction((tx) => this.runBatch(tx, userId, commands, prepared, handlers, optimistic)));
      } catch (err) {
        // A plan count another request is taking: nothing of this one was kept; it runs again
        // once that one is done (each wait is someone else's progress, so the waits are bounded).
        const busy = busyCountLock(err);
        if (busy && countLockWaits < COUNT_LOCK_WAITS) {
          countLockWaits++;
          await waitForCountLock(this.database.dataSource.manager, busy.lockId);
          continue;
        }
        // A command failed with no savepoint to undo it alone: the whole pass was rolled back.
        // Not a failed attempt: the same request runs again, now with savepoints.
        if (err instanceof OptimisticPassFailed) {
          optimistic = false;
          continue;
        }
        if (isRetryable(err) && attempt < TRANSACTION_ATTEMPTS) {
          await beforeRetry(attempt);
          attempt++;
          continue;
        }
        // The database went away (down, restarting, refusing connections): nothing of this
        // segment committed and no uuid was recorded, so the whole request is refused with a
        // 503 its client retries, not answered with per-command errors it would take as final.
        if (isOutage(err)) throw infrastructureUnavailable(err);
        // Nothing was committed (the user row could not be locked, or a statement outside the
        // commands' savepoints failed, or COMMIT did): no command ran, none is remembered.
        if (!(err instanceof DomainError)) this.logger.error({ err, userId, commands: commands.length, attempt }, 'command transaction failed');
        const status: CommandStatus = err instanceof DomainError ? { ...todoistErrorBody(err) } : { ...todoistErrorBody(new DomainError('INTERNAL'), currentCorrelationId()) };
        return { statuses: new Map(commands.map((command) => [command.uuid, status])), tempIdMapping: {} };
      }
    }
  }

  /**
   * The request cut where remote work is: consecutive local commands share a transaction; a
   * command with remote work gets its own, after that work, so no transaction waits on the network.
   */
  private segments(commands: readonly SyncCommand[], handlers: Handlers): SyncCommand[][] {
    const segments: SyncCommand[][] = [];
    let local: SyncCommand[] = [];
    for (const command of commands) {
      if (!hasRemoteWork(handlers, command)) {
        local.push(command);
        continue;
      }
      if (local.length > 0) segments.push(local);
      segments.push([command]);
      local = [];
    }
    if (local.length > 0) segments.push(local);
    return segments;
  }

  /** Does the remote work of a segment's commands, skipping uuids already executed (their outcome is replayed). */
  private async prepare(principal: Principal, commands: readonly SyncCommand[], handlers: Handlers): Promise<Map<string, Preparation>> {
    const prepared = new Map<string, Preparation>();
    const remote = commands.filter((command) => hasRemoteWork(handlers, command));
    if (remote.length === 0) return prepared;
    const executed = await CommandBatchLog.executed(this.database.dataSource.manager, principal.userId, remote.map((command) => command.uuid));
    for (const command of remote) {
      if (executed.has(command.uuid)) continue;
      try {
        prepared.set(command.uuid, { ok: true, value: await handlers.get(command.type)!.prepare!(principal, command.args, command.uuid) });
      } catch (error) {
        prepared.set(command.uuid, { ok: false, error });
      }
    }
    return prepared;
  }

  private async runBatch(tx: Tx, userId: string, commands: readonly SyncCommand[], prepared: ReadonlyMap<string, Preparation>, handlers: Handlers, optimistic: boolean): Promise<BatchOutcome> {
    const profile = await lockUser(tx, this.profiles, userId);
    const { log, version } = await CommandBatchLog.load(tx.manager, userId, commands.map((command) => command.uuid));
    const batch: Batch = {
      tx,
      userId,
      handlers,
      log,
      change: new RequestChange(tx, this.profiles, profile, version),
      guard: optimistic ? new OptimisticCommands() : new CommandSavepoints(tx),
      tempIdMapping: keyedByClient<string>(),
      prepared,
      group: optimistic ? new WriteGroup() : undefined,
      access: new ProjectAccess(tx.manager, this.members, userId, this.policies),
      workspaceAccess: new WorkspaceAccess(tx.manager, this.workspaceMembers, userId, this.policies),
      plan: new PlanGate(tx.manager, this.planLimits, userId),
      objectEvents: [],
    };
    const statuses = new Map<string, CommandStatus>();
    for (const command of commands) {
      if (await this.joinGroup(batch, command)) continue;
      await this.writeGroup(batch, statuses);
      statuses.set(command.uuid, await this.runOne(batch, command));
    }
    await this.writeGroup(batch, statuses);
    await batch.guard.finish();
    await writeObjectEvents(tx, batch.objectEvents);
    await batch.log.flush();
    await batch.change.close();
    return { statuses, tempIdMapping: batch.tempIdMapping };
  }

  private runOne(batch: Batch, command: SyncCommand): Promise<CommandStatus> {
    return inSpan(`command ${command.type}`, { attributes: { 'doable.command.type': command.type, 'doable.command.uuid': command.uuid } }, () => this.runCommand(batch, command));
  }

  private async runCommand(batch: Batch, command: SyncCommand): Promise<CommandStatus> {
    const earlier = batch.log.outcomeOf(command.uuid);
    if (earlier) {
      Object.assign(batch.tempIdMapping, earlier.tempIdMapping);
      return earlier.status;
    }
    const handler = batch.handlers.get(command.type);
    if (!handler) return this.refused(batch, command, new DomainError('UNKNOWN_COMMAND', `Unknown command type: ${command.type}`, { command_type: command.type }));

    const preparation = batch.prepared.get(command.uuid);
    if (preparation && !preparation.ok) return this.failed(batch, command, preparation.error);
    if (command.paidOnly) {
      try {
        await batch.plan.requirePaidPlan(command.paidOnly);
      } catch (error) {
        return this.failed(batch, command, error);
      }
    }

    const change = await batch.change.open();
    const touched = nothingTouched();
    const onRefusal: RefusalEvent[] = [];
    // What the command adds to the request's object events goes with its savepoint if it fails.
    const eventsBefore = batch.objectEvents.length;
    const attempt = await batch.guard.attempt(() => handler.run(this.contextOf(batch, change, touched, command.type, onRefusal), command.args, preparation?.value));
    if (!attempt.ok) batch.objectEvents.length = eventsBefore;
    if (this.policies.changesMemberships(command.type)) {
      batch.access.forget();
      batch.workspaceAccess.forget();
    }
    if (!attempt.ok) {
      await this.emitRefusalEvents(batch, attempt.error, onRefusal);
      return this.failed(batch, command, attempt.error);
    }

    batch.change.commandWritten(touched);
    const status = this.succeeded(batch, command, attempt.value);
    if (PROFILE_COMMANDS.has(command.type)) await batch.change.reloadProfile();
    return status;
  }

  /**
   * Plans a command into the optimistic pass's group (CommandHandler.plan) instead of running
   * it; false when it must run alone. Planning writes nothing, so a command that cannot join
   * leaves no trace: the group is written, then the command runs as it always did.
   */
  private async joinGroup(batch: Batch, command: SyncCommand): Promise<boolean> {
    const group = batch.group;
    const handler = batch.handlers.get(command.type);
    // A generation's paid-only command is checked on its own, in runOne.
    if (!group || command.paidOnly || !handler?.plan || !handler.writeAll || batch.log.outcomeOf(command.uuid) || !group.accepts(command, handler)) return false;
    const context: CommandContext = {
      ...this.contextOf(batch, await batch.change.open(), nothingTouched(), command.type),
      resolveId: (value, argument) => {
        group.checkIndependent(value);
        return this.resolveId(batch, value, argument);
      },
    };
    let plan: unknown;
    try {
      plan = await handler.plan(context, command.args);
    } catch {
      // Refused, or depends on the group: run() answers it, on its own.
      return false;
    }
    if (plan === undefined) return false;
    group.add(command, handler, plan);
    return true;
  }

  /**
   * Writes the group in one go and answers its commands. A command writeAll() did not write
   * would have been refused by run(): that is not answered here, the optimistic pass is lost
   * and the request runs again with savepoints, where run() refuses it. A failing statement
   * loses the pass the same way (the guard is the optimistic one).
   */
  private async writeGroup(batch: Batch, statuses: Map<string, CommandStatus>): Promise<void> {
    const group = batch.group?.take();
    if (!group) return;
    await inSpan(`command ${group.handler.type}`, { attributes: { 'doable.command.type': group.handler.type, 'doable.commands.count': group.members.length } }, () => this.writeTakenGroup(batch, group, statuses));
  }

  private async writeTakenGroup(batch: Batch, group: NonNullable<ReturnType<WriteGroup['take']>>, statuses: Map<string, CommandStatus>): Promise<void> {
    const touched = nothingTouched();
    const context = this.contextOf(batch, await batch.change.open(), touched, group.handler.type);
    const attempt = await batch.guard.attempt(() => group.handler.writeAll!(context, group.members.map((member) => member.plan)));
    if (!attempt.ok) throw new OptimisticPassFailed(attempt.error);
    const outcomes = attempt.value;
    if (group.members.some((_, index) => outcomes[index] === undefined)) throw new OptimisticPassFailed(new Error(`${group.handler.type}: a command was not written`));
    batch.change.commandWritten(touched);
    group.members.forEach((member, index) => statuses.set(member.command.uuid, this.succeeded(batch, member.command, outcomes[index]!)));
  }

  /**
   * What a command of this type sees while it runs; its touches are collected in `touched`, the
   * events it asks for should it be refused in `onRefusal` (none kept where no one reads them: a
   * command planned or written in a group is never answered refused there, see writeGroup).
   */
  private contextOf(batch: Batch, change: UserChange, touched: Touched, commandType: string, onRefusal: RefusalEvent[] = []): CommandContext {
    return {
      tx: batch.tx,
      userId: batch.userId,
      version: change.version,
      user: change.user,
      writeEventObject: this.eventObjectWriter,
      pendingObjectEvents: batch.objectEvents,
      touch: (...projectIds) => touched.projects.push(...projectIds),
      touchUsers: (...userIds) => touched.users.push(...userIds),
      touchWorkspace: (...workspaceIds) => touched.workspaces.push(...workspaceIds),
      requireAccess: (projectId, asCommand) => batch.access.require(asCommand ?? commandType, projectId),
      knownWorkspaceOf: (projectId) => batch.access.workspaceOf(projectId),
      requireWorkspaceAccess: (workspaceId, asCommand) => batch.workspaceAccess.require(asCommand ?? commandType, workspaceId),
      plan: batch.plan.forCommand(commandType, this.policies.of(commandType)?.quantities ?? []),
      emitOnRefusal: (event, payload) => onRefusal.push(() => batch.tx.emit(event, payload)),
      resolveId: (value, argument) => this.resolveId(batch, value, argument),
      eachObject: (entries, work) => {
        const mark = { projects: 0, users: 0, workspaces: 0, events: 0 };
        // A refused object's touches and object events go with its writes.
        return eachObject(batch.tx, entries, work, {
          begin: () => Object.assign(mark, { projects: touched.projects.length, users: touched.users.length, workspaces: touched.workspaces.length, events: batch.objectEvents.length }),
          undone: () => {
            touched.projects.length = mark.projects;
            touched.users.length = mark.users;
            touched.workspaces.length = mark.workspaces;
            batch.objectEvents.length = mark.events;
          },
        });
      },
    };
  }

  /** A command that ran: its temp id mapped, its outcome remembered, its status. */
  private succeeded(batch: Batch, command: SyncCommand, outcome: CommandOutcome): CommandStatus {
    const mapping = keyedByClient<string>();
    if (command.temp_id && outcome.createdId) {
      mapping[command.temp_id] = outcome.createdId;
      batch.log.rememberTempId(command.temp_id, outcome.createdId);
    }
    const status = statusOf(outcome);
    // Remembered whole, per-id outcomes included: a retried uuid answers exactly this again.
    batch.log.record(command.uuid, status, mapping);
    Object.assign(batch.tempIdMapping, mapping);
    return status;
  }

  /**
   * The events a refused command asked for (CommandContext.emitOnRefusal), recorded now that its
   * savepoint has undone its writes. Only here, in the pass with savepoints: in the optimistic
   * pass a refusal never reaches this point (the pass is lost and the request reruns with
   * savepoints, where the command is refused again and this runs once). Only for a refusal that
   * is remembered: the uuid's retry replays it without running, so the events go out once.
   */
  private async emitRefusalEvents(batch: Batch, error: unknown, onRefusal: readonly RefusalEvent[]): Promise<void> {
    if (!(error instanceof DomainError) || TRANSIENT_CODES.has(error.code)) return;
    for (const emit of onRefusal) await emit();
  }

  /** A command that threw: a coded refusal, or an unexpected failure (INTERNAL, not remembered: a retry may succeed). */
  private failed(batch: Batch, command: SyncCommand, error: unknown): CommandStatus {
    if (error instanceof DomainError) return this.refused(batch, command, error);
    // An outage fails the transaction, not the command (see runInOneTransaction). So do a plan
    // count's lock found taken (CountLockBusy) and a deadlock met inside a command: not the
    // command's failure; the whole request runs again.
    if (isOutage(error) || isRetryable(error) || error instanceof CountLockBusy) throw error;
    this.logger.error({ err: error, commandType: command.type, uuid: command.uuid }, 'command failed unexpectedly');
    return { ...todoistErrorBody(new DomainError('INTERNAL'), currentCorrelationId()) };
  }

  /** A deterministic refusal is remembered too (a retry gets the same answer); a transient one is not. */
  private refused(batch: Batch, command: SyncCommand, err: DomainError): CommandStatus {
    const status = { ...todoistErrorBody(err) };
    if (!TRANSIENT_CODES.has(err.code)) batch.log.record(command.uuid, status, {});
    return status;
  }

  /** A real id, or a temp id from this request or an earlier one, to a real id. */
  private async resolveId(batch: Batch, value: unknown, argument: string): Promise<string> {
    const id = typeof value === 'number' ? String(value) : value;
    if (typeof id !== 'string' || id.length === 0 || id.length > 100) {
      throw new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${argument}`, { argument });
    }
    // Own keys only: a temp id named `__proto__` or `constructor` is not the mapping's prototype.
    const mapped = Object.hasOwn(batch.tempIdMapping, id) ? batch.tempIdMapping[id] : await batch.log.resolveStoredTempId(id);
    if (mapped) return mapped;
    if (isObjectId(id)) return id;
    throw new DomainError('INVALID_TEMP_ID', 'Invalid temporary id', { argument, temp_id: id });
  }
}
