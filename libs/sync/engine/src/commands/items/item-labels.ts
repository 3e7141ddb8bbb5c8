import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { type LabelRepository } from '@doable/sync-domain';
import type { CommandContext } from '../../command-handler';
import { idArg } from '../../command-args';

/**
 * `label_ids`: a task's personal labels named by id (ids or temp ids), the canonical form of
 * what Sync v8 sent as `labels` (integers). Tasks store label names, so the ids are resolved to
 * names inside the command's transaction, in one query, and the task is written with `labels`.
 */
export const labelIdsArg = z.array(idArg).max(100);

/** The names of the labels the ids name, in the order given (duplicates once); LABEL_NOT_FOUND for an id that is not the user's label. */
export async function labelNamesOfIds(labels: LabelRepository, context: CommandContext, values: ReadonlyArray<string | number>): Promise<string[]> {
  const ids: string[] = [];
  for (const value of values) ids.push(await context.resolveId(value, 'label_ids'));
  const names = await labels.namesOfIds(context.tx.manager, context.userId, [...new Set(ids)]);
  const missing = ids.find((id) => !names.has(id));
  if (missing !== undefined) throw new DomainError('LABEL_NOT_FOUND', 'Label not found', { argument: 'label_ids', id: missing });
  return [...new Set(ids.map((id) => names.get(id) as string))];
}

/** A task's labels from `labels` (names) or `label_ids`; both at once is refused, neither is undefined. */
export async function taskLabels(
  labels: LabelRepository,
  context: CommandContext,
  args: { labels?: string[]; label_ids?: Array<string | number> },
): Promise<string[] | undefined> {
  if (args.label_ids === undefined) return args.labels;
  if (args.labels !== undefined) {
    throw new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: label_ids', { argument: 'label_ids', explanation: 'send labels or label_ids, not both' });
  }
  return labelNamesOfIds(labels, context, args.label_ids);
}
