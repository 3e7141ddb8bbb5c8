import type { CompletedInfo } from '@doable/sync-domain';

/**
 * One `completed_info` entry: how much is completed under a project (and how many of its
 * sections are archived), a section or a parent task (client-schemas › CompletedInfoSchema).
 */
export function writeCompletedInfo(row: CompletedInfo): Record<string, unknown> {
  switch (row.kind) {
    case 'project':
      return { project_id: row.id, completed_items: row.completedItems, archived_sections: row.archivedSections };
    case 'section':
      return { section_id: row.id, id: row.id, completed_items: row.completedItems };
    case 'item':
      return { item_id: row.id, id: row.id, completed_items: row.completedItems };
  }
}
