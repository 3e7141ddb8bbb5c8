import type { ItemRow } from '../items/item.model';
import type { Project } from '../projects/project.model';
import type { Section } from '../sections/section.model';
import { commonItemFields, timestampOrNull } from './item-fields';
import type { SyncObjectWriters } from './sync-envelope';
import { writeSyncUser } from './user.writer';
import { wireTimestamp } from './wire-format';

/**
 * Unified API v1 (`/api/v1/sync`): string ids, `is_collapsed`, every project key the SDK
 * requires. A personal project never carries `workspace_id` (its presence, even null, makes
 * the SDK validate it as a workspace project).
 */
export const syncApiV1Writers: SyncObjectWriters = {
  dialect: 'sync-api-v1',
  project: (project: Project) => ({
    id: project.id,
    name: project.name,
    description: project.description,
    color: project.color,
    parent_id: project.parent_id,
    child_order: project.child_order,
    default_order: 0,
    is_collapsed: project.is_collapsed,
    is_favorite: project.is_favorite,
    is_archived: project.is_archived,
    is_deleted: project.is_deleted,
    is_frozen: false,
    is_shared: false,
    can_assign_tasks: false,
    view_style: project.view_style,
    created_at: wireTimestamp(new Date(project.created_at)),
    updated_at: wireTimestamp(new Date(project.updated_at)),
    ...(project.inbox_project ? { inbox_project: true } : {}),
  }),
  // Every one of the SDK's 23 task keys, nullable ones present as null (client-constraints §2.1).
  item: (item: ItemRow) => {
    // Added to, not spread: a full sync writes thousands of these.
    const fields = commonItemFields(item);
    fields['is_collapsed'] = item.is_collapsed;
    fields['note_count'] = item.note_count ?? 0;
    return fields;
  },
  section: (section: Section) => ({
    id: section.id,
    user_id: section.user_id,
    project_id: section.project_id,
    name: section.name,
    description: section.description,
    section_order: section.section_order,
    is_collapsed: section.is_collapsed,
    is_archived: section.is_archived,
    is_deleted: section.is_deleted,
    archived_at: timestampOrNull(section.archived_at),
    added_at: timestampOrNull(section.added_at),
    updated_at: timestampOrNull(section.updated_at),
  }),
  user: writeSyncUser,
};
