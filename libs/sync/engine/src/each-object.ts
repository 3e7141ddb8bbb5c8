import { DomainError, todoistErrorBody } from '@doable/shared-errors';
import type { Tx } from '@doable/shared-runtime';
import type { IdStatus, PerIdStatus } from './command-status';
import { CommandSavepoints } from './savepoint';

/** Refusals that say nothing about the command itself: a retry may succeed, so they are not remembered. */
export const TRANSIENT_CODES: ReadonlySet<string> = new Set(['USER_NOT_FOUND', 'SERVICE_UNAVAILABLE', 'INTERNAL']);

/** Savepoint of one object, nested in the command's own. */
const OBJECT_SAVEPOINT = 'sync_object';

/**
 * The objects of a command over several, each on its own: a DomainError undoes that object's
 * writes alone (and `undone` is told, to forget its touches) and becomes its status. Anything
 * else (a crash, a transient refusal) is thrown: the command fails as a whole and is undone by
 * its own savepoint, which takes the objects' savepoints with it.
 */
export async function eachObject<T>(
  tx: Tx,
  entries: ReadonlyArray<readonly [key: string, value: T]>,
  work: (value: T) => Promise<void>,
  hooks: { readonly begin?: () => void; readonly undone?: () => void } = {},
): Promise<PerIdStatus> {
  const savepoints = new CommandSavepoints(tx, OBJECT_SAVEPOINT);
  const statuses: Record<string, IdStatus> = {};
  for (const [key, value] of entries) {
    hooks.begin?.();
    const attempt = await savepoints.attempt(() => work(value));
    if (attempt.ok) {
      // An id given twice keeps its refusal, if one of its runs was refused.
      statuses[key] ??= 'ok';
      continue;
    }
    hooks.undone?.();
    if (!(attempt.error instanceof DomainError) || TRANSIENT_CODES.has(attempt.error.code)) throw attempt.error;
    statuses[key] = { ...todoistErrorBody(attempt.error) };
  }
  await savepoints.finish();
  return statuses;
}
