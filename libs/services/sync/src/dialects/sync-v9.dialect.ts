import type { Project } from '../projects/project.model';
import type { SyncObjectWriters } from './sync-envelope';
import { writeSyncUser } from './user.writer';

/** Sync v9 (`/sync/v9/sync`): string ids, `collapsed`, `shared`, no timestamps on projects. */
export const syncV9Writers: SyncObjectWriters = {
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
  user: writeSyncUser,
};
