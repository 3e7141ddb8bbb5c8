import type { Principal } from '@doable/contracts-common';
import type { Tx } from '@doable/shared-runtime';

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
  /** The acting user's timezone and week settings (due dates are computed in them). */
  readonly user: { readonly timezone: string; readonly startDay: number; readonly nextWeek: number; readonly inboxProjectId: string };
}

export interface CommandOutcome {
  /** The id of the object the command created; mapped from the command's temp_id. */
  readonly createdId?: string;
}

/** One command type of the Sync API. Runs inside the request's transaction (its own savepoint); throws DomainErrors. */
export interface CommandHandler {
  readonly type: string;
  /**
   * Work another service owns (credentials in auth-oauth, notification state), done BEFORE the
   * request's transaction: no transaction is held across a network call. What it answers is
   * handed to run(); what it throws is the command's refusal. Only commands that need it have it.
   */
  prepare?(principal: Principal, args: Record<string, unknown>): Promise<unknown>;
  run(context: CommandContext, args: Record<string, unknown>, prepared?: unknown): Promise<CommandOutcome>;
}

export const COMMAND_HANDLERS = Symbol('COMMAND_HANDLERS');
