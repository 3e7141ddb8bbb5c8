import { DomainError } from '@doable/shared-errors';
import { type Label, type LabelRepository } from '@doable/sync-domain';
import type { CommandContext } from '../../command-handler';

/** The acting user's own label an argument names; LABEL_NOT_FOUND for unknown or someone else's. */
export async function loadLabel(labels: LabelRepository, context: CommandContext, value: unknown, argument = 'id'): Promise<Label> {
  const id = await context.resolveId(value, argument);
  const label = await labels.findOwnedForUpdate(context.tx.manager, context.userId, id);
  if (!label) throw new DomainError('LABEL_NOT_FOUND', 'Label not found', { argument, id });
  return label;
}

/** Personal label names are unique per user, case aside; `except` is the label being renamed. */
export async function assertNameFree(labels: LabelRepository, context: CommandContext, name: string, except?: string): Promise<void> {
  const existing = await labels.findByNameForUpdate(context.tx.manager, context.userId, name);
  if (existing && existing.id !== except) throw new DomainError('LABEL_ALREADY_EXISTS', 'Label already exists', { argument: 'name', name });
}
