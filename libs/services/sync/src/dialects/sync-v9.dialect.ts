import type { ItemRow } from '../items/item.model';
import type { Project } from '../projects/project.model';
import type { Section } from '../sections/section.model';
import { commonItemFields, timestampOrNull } from './item-fields';
import type { SyncObjectWriters } from './sync-envelope';
import { writeSyncUser } from './user.writer';

/** Sync v9 (`/sync/v9/sync`): string ids, `collapsed`, `shared`, no timestamps on projects. */
export const syncV9Writers: SyncObjectWriters = {
  dialect: 'sync-v9',
  project: (project: Project) => ({
    id: project.id,
    name: project.name,
    color: project.color,
    parent_id: project.parent_id,
    child_order: project.child_order,
    collapsed: project.is_collapsed,
    shared: false,
    sync_id: null,
    is_favorite: project.is_favorite,
    is_archived: project.is_archived,
    is_deleted: project.is_deleted,
    view_style: project.view_style,
    ...(project.inbox_project ? { inbox_project: true } : {}),
  }),
  item: (item: ItemRow) => {
    // Added to, not spread: a full sync writes thousands of these.
    const fields = commonItemFields(item);
    fields['collapsed'] = item.is_collapsed;
    fields['sync_id'] = null;
    return fields;
  },
  section: (section: Section) => ({
    id: section.id,
    user_id: section.user_id,
    project_id: section.project_id,
    name: section.name,
    section_order: section.section_order,
    collapsed: section.is_collapsed,
    sync_id: null,
    is_archived: section.is_archived,
    is_deleted: section.is_deleted,
    archived_at: timestampOrNull(section.archived_at),
    added_at: timestampOrNull(section.added_at),
  }),
  user: writeSyncUser,
};
