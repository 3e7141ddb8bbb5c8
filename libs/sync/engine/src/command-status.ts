import type { TodoistErrorBody } from '@doable/shared-errors';

/** The outcome of one object of a command: `ok`, or the Todoist error body it was refused with. */
export type IdStatus = 'ok' | TodoistErrorBody;

/** Each object's outcome of a command over several objects, by the id the client sent (spec §7.2). */
export interface PerIdStatus {
  readonly [id: string]: IdStatus;
}

/**
 * A command's `sync_status` value, as answered and as stored for uuid replays: `ok`, the error
 * body the command was refused with, or, for a command over several objects, each one's outcome.
 */
export type CommandStatus = 'ok' | TodoistErrorBody | PerIdStatus;

/** Whether a status is a refusal of the whole command (an error body always carries a numeric error_code; a per-id map never does). */
export function isRefusal(status: CommandStatus): status is TodoistErrorBody {
  return status !== 'ok' && typeof (status as { error_code?: unknown }).error_code === 'number';
}

/** The refusal a status stands for, if any: the command's own error, or the first refused id's. */
export function firstRefusal(status: CommandStatus): TodoistErrorBody | undefined {
  if (status === 'ok') return undefined;
  if (isRefusal(status)) return status;
  return Object.values(status).find((entry): entry is TodoistErrorBody => entry !== 'ok');
}
