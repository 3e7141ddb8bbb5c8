import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';

/** Argument pieces of the task commands. */
export const priorityArg = z.number().int().min(1).max(4);
export const labelsArg = z.array(z.string().trim().min(1).max(255)).max(100);
export const contentArg = z.string().max(15_000);

/** Content is required to say something: an empty task is refused with its own code (61). */
export function checkContent(content: string): string {
  const trimmed = content.trim();
  if (!trimmed) throw new DomainError('ITEM_CONTENT_EMPTY', 'Item content is empty', { argument: 'content' });
  return trimmed;
}
