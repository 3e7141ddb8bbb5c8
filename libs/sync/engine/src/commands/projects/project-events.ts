import type { ObjectEventType } from '@doable/contracts-sync';
import type { Project } from '@doable/sync-domain';
import type { ObjectChange } from '../../object-events';

/**
 * The object event of a project (SyncEvents.objectEvent): the one place a project's
 * `extra_data` is decided (`name`, and `last_name` on a rename). Its parent project is the
 * project it sits under; its workspace its own. `project` is the project as the command left it.
 */
export function projectChange(project: Project, eventType: ObjectEventType, extraData: Record<string, unknown> = {}): ObjectChange {
  return {
    object: project,
    objectType: 'project',
    objectId: project.id,
    eventType,
    parentProjectId: project.parent_id,
    parentItemId: null,
    workspaceId: project.workspace_id,
    extraData: { name: project.name, ...extraData },
  };
}
