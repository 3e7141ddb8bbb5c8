import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import type { CommandContext, CommandOutcome } from '../command-handler';

/** Argument pieces shared by the task commands, accepting both historical spellings where sources differ. */
export const idArg = z.union([z.string().min(1).max(100), z.number().int().positive()]);
export const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((value) => value === true || value === 1);
export const priorityArg = z.number().int().min(1).max(4);
export const labelsArg = z.array(z.string().trim().min(1).max(255)).max(100);
export const contentArg = z.string().max(15_000);

/** Content is required to say something: an empty task is refused with its own code (61). */
export function checkContent(content: string): string {
  const trimmed = content.trim();
  if (!trimmed) throw new DomainError('ITEM_CONTENT_EMPTY', 'Item content is empty', { argument: 'content' });
  return trimmed;
}

/**
 * A command on `id` (v9/v1) or on `ids` (v7/v8 drafts). One `id` answers `ok` or its error, as
 * ever. Each of the `ids` is done on its own: a refused one is undone alone and the command
 * answers a map of each id to `ok` or its error (spec §7.2).
 */
export async function forEachId(
  context: CommandContext,
  args: { id?: string | number; ids?: Array<string | number> },
  work: (id: string | number) => Promise<void>,
): Promise<CommandOutcome> {
  if (args.id !== undefined) {
    await work(args.id);
    return {};
  }
  if (args.ids === undefined || args.ids.length === 0) throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: id', { argument: 'id' });
  const statuses = await context.eachObject(
    args.ids.map((id) => [String(id), id] as const),
    work,
  );
  return { perObject: { statuses, answer: 'always' } };
}

/**
 * A command over an id map or list of entries (orders): each entry on its own, answered `ok`
 * when all succeeded, and each id's outcome only when one was refused (see PerObjectOutcome).
 */
export async function forEachEntry<T>(context: CommandContext, entries: ReadonlyArray<readonly [key: string, value: T]>, work: (value: T) => Promise<void>): Promise<CommandOutcome> {
  return { perObject: { statuses: await context.eachObject(entries, work), answer: 'when-refused' } };
}
