import { DomainError } from '@doable/shared-errors';
import { type Item, type ItemRepository } from '@doable/sync-domain';
import type { CommandContext } from '../../command-handler';

/**
 * The task an argument names, if the user can see it; otherwise ITEM_NOT_FOUND, the same answer
 * for a task that does not exist and one in someone else's project.
 */
export async function loadItem(items: ItemRepository, context: CommandContext, value: unknown, argument = 'id'): Promise<Item> {
  const id = await context.resolveId(value, argument);
  const item = await items.findVisibleForUpdate(context.tx.manager, context.userId, id);
  if (!item) throw new DomainError('ITEM_NOT_FOUND', 'Item not found', { argument, id });
  await context.requireAccess(item.project_id);
  return item;
}
