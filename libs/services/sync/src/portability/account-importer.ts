import { createHash } from 'node:crypto';
import type { Principal } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { Database } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { CommandExecutor, type CommandStatus, firstRefusal, MAX_COMMANDS_PER_REQUEST, type SyncCommand } from '@doable/sync-engine';
import type { AccountSnapshot } from './account-snapshot';
import { INBOX_REFERENCE, planImport, type PlannedCommand, REFERENCE_ARGUMENTS } from './import-plan';

/** What an import did: the commands that ran, by type, and the refusals, by type and code. */
export interface ImportSummary {
  readonly created: Record<string, number>;
  readonly refused: ReadonlyArray<{ readonly type: string; readonly code: string; readonly count: number }>;
}

/**
 * A command's uuid, derived from the import's key and its place in the plan: the same import
 * sent again (a retry after a timeout, the CLI run twice with the same file) replays every
 * command it already ran instead of doubling the account, and carries on where it stopped.
 */
function uuidOf(importKey: string, index: number, command: PlannedCommand): string {
  const hex = createHash('sha256').update(`${importKey}\u0000${index}\u0000${command.type}\u0000${command.temp_id ?? ''}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Rebuilds a snapshot (AccountSnapshot) in an existing account through the Sync API's own
 * commands, run by the CommandExecutor as the user's requests of up to 100 commands: plan
 * limits, scopes, validation, idempotency and the outbox's events apply exactly as for a
 * client. A refused command (over a plan limit, say) is counted, and what depended on it is
 * refused in turn (its temp id never resolves): an import never fails half-written silently.
 * Temp ids created by earlier requests are replaced by their real ids here, so a large account
 * does not depend on the executor's window of remembered temp ids.
 */
@Injectable()
export class AccountImporter {
  constructor(
    private readonly database: Database,
    private readonly executor: CommandExecutor,
  ) {}

  async import(principal: Principal, snapshot: AccountSnapshot, importKey: string): Promise<ImportSummary> {
    const plan = planImport(snapshot);
    const resolved = new Map<string, string>([[INBOX_REFERENCE, await this.inboxOf(principal.userId)]]);
    const created: Record<string, number> = {};
    const refused = new Map<string, { type: string; code: string; count: number }>();
    for (let start = 0; start < plan.length; start += MAX_COMMANDS_PER_REQUEST) {
      const batch: SyncCommand[] = plan.slice(start, start + MAX_COMMANDS_PER_REQUEST).map((command, offset) => ({
        type: command.type,
        uuid: uuidOf(importKey, start + offset, command),
        args: withRealIds(command.args, resolved),
        ...(command.temp_id ? { temp_id: command.temp_id } : {}),
      }));
      const results = await this.executor.run(principal, batch);
      for (const [tempId, realId] of Object.entries(results.tempIdMapping)) resolved.set(tempId, realId);
      for (const command of batch) count(results.syncStatus[command.uuid], command.type, created, refused);
    }
    return { created, refused: [...refused.values()] };
  }

  private async inboxOf(userId: string): Promise<string> {
    const [row] = await this.database.dataSource.query<Array<{ id: string | null }>>(`SELECT inbox_project_id::text AS id FROM sync.users WHERE id = $1`, [userId]);
    if (!row?.id) throw new DomainError('NOT_FOUND', 'The account has no Inbox yet');
    return row.id;
  }
}

function withRealIds(args: Record<string, unknown>, resolved: ReadonlyMap<string, string>): Record<string, unknown> {
  const out = { ...args };
  for (const name of REFERENCE_ARGUMENTS) {
    const value = out[name];
    if (typeof value === 'string' && resolved.has(value)) out[name] = resolved.get(value);
  }
  return out;
}

function count(status: CommandStatus | undefined, type: string, created: Record<string, number>, refused: Map<string, { type: string; code: string; count: number }>): void {
  const refusal = status === undefined ? undefined : firstRefusal(status);
  if (status !== undefined && !refusal) {
    created[type] = (created[type] ?? 0) + 1;
    return;
  }
  const code = refusal?.error_tag ?? 'INTERNAL';
  const key = `${type}\u0000${code}`;
  const entry = refused.get(key) ?? { type, code, count: 0 };
  entry.count++;
  refused.set(key, entry);
}
