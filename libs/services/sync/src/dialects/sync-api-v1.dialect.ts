import type { Project } from '../projects/project.model';
import type { SyncObjectWriters } from './sync-envelope';
import { writeSyncUser } from './user.writer';
import { wireTimestamp } from './wire-format';

/**
 * Unified API v1 (`/api/v1/sync`): string ids, `is_collapsed`, every project key the SDK
 * requires. A personal project never carries `workspace_id` (its presence, even null, makes
 * the SDK validate it as a workspace project).
 */
export const syncApiV1Writers: SyncObjectWriters = {
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
  user: writeSyncUser,
};
