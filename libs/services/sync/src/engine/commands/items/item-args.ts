import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';

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

/** `id` (v9/v1) or `ids` (v7/v8 drafts): the ids a command acts on. */
export function idsOf(args: { id?: string | number; ids?: Array<string | number> }): Array<string | number> {
  if (args.id !== undefined) return [args.id];
  if (args.ids !== undefined && args.ids.length > 0) return args.ids;
  throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: id', { argument: 'id' });
}
