import { DomainError } from '@doable/shared-errors';

/** The task commands' arguments that are task fields are lines of the task field table (TASK_ADD_ARGS, TASK_UPDATE_ARGS). */

/** Content is required to say something: an empty task is refused with its own code (61). */
export function checkContent(content: string): string {
  const trimmed = content.trim();
  if (!trimmed) throw new DomainError('ITEM_CONTENT_EMPTY', 'Item content is empty', { argument: 'content' });
  return trimmed;
}
