import { DomainError } from '@doable/shared-errors';
import { type Filter, type FilterRepository } from '@doable/sync-domain';
import type { CommandContext } from '../../command-handler';

/** The acting user's own filter an argument names; FILTER_NOT_FOUND for unknown or someone else's. */
export async function loadFilter(filters: FilterRepository, context: CommandContext, value: unknown, argument = 'id'): Promise<Filter> {
  const id = await context.resolveId(value, argument);
  const filter = await filters.findOwnedForUpdate(context.tx.manager, context.userId, id);
  if (!filter) throw new DomainError('FILTER_NOT_FOUND', 'Filter not found', { argument, id });
  return filter;
}
