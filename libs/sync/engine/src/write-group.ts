import type { CommandHandler } from './command-handler';
import type { SyncCommand } from './sync-request';

/** A planned command of the group: what its handler's writeAll() will write for it. */
export interface GroupMember {
  readonly command: SyncCommand;
  readonly plan: unknown;
}

/** Thrown by a planning command's resolveId when it names a temp id the group has not written yet. */
export class DependsOnGroup extends Error {}

/**
 * Consecutive commands of one type (CommandHandler.plan/writeAll) collected in a request's
 * optimistic pass, to be written in one statement: 100 `item_add`s become one INSERT.
 * A command joins only if its outcome cannot depend on the others': not a uuid seen earlier
 * (that is a replay, answered from the log once the group is written), and not one naming a
 * temp id of the group (planning it throws DependsOnGroup). Anything else runs alone, after
 * the group is written, as the commands ran one after another.
 */
export class WriteGroup {
  private handler: CommandHandler | undefined;
  private members: GroupMember[] = [];
  private readonly uuids = new Set<string>();
  private readonly tempIds = new Set<string>();

  /** Whether a command of this handler may be planned into the group. */
  accepts(command: SyncCommand, handler: CommandHandler): boolean {
    return (this.handler === undefined || this.handler === handler) && !this.uuids.has(command.uuid);
  }

  add(command: SyncCommand, handler: CommandHandler, plan: unknown): void {
    this.handler = handler;
    this.members.push({ command, plan });
    this.uuids.add(command.uuid);
    if (command.temp_id) this.tempIds.add(command.temp_id);
  }

  /** Throws DependsOnGroup for a temp id one of the group's commands will create. */
  checkIndependent(value: unknown): void {
    if (this.tempIds.has(String(value))) throw new DependsOnGroup();
  }

  /** Empties the group: its handler and members, in order (undefined when empty). */
  take(): { readonly handler: CommandHandler; readonly members: readonly GroupMember[] } | undefined {
    const handler = this.handler;
    const members = this.members;
    this.handler = undefined;
    this.members = [];
    this.uuids.clear();
    this.tempIds.clear();
    return handler && members.length > 0 ? { handler, members } : undefined;
  }
}
