import { DomainError } from '@doable/shared-errors';
import { type Section, type SectionRepository } from '@doable/sync-domain';
import type { CommandContext } from '../../command-handler';

/** The section an argument names, if the user can see it; SECTION_NOT_FOUND otherwise. */
export async function loadSection(sections: SectionRepository, context: CommandContext, value: unknown, argument = 'id'): Promise<Section> {
  const id = await context.resolveId(value, argument);
  const section = await sections.findVisibleForUpdate(context.tx.manager, context.userId, id);
  if (!section) throw new DomainError('SECTION_NOT_FOUND', 'Section not found', { argument, id });
  await context.requireAccess(section.project_id);
  return section;
}
