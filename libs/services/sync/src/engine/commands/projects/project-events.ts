import type { ObjectEventType } from '@doable/contracts-sync';
import type { Project } from '../../../projects/project.model';
import type { ObjectChange } from '../object-events';

/**
 * The object event of a project (SyncEvents.objectEvent): the one place a project's
 * `extra_data` is decided (`name`, and `last_name` on a rename). Its parent project is the
 * project it sits under; its workspace its own.
 */
export function projectChange(project: Pick<Project, 'id' | 'parent_id' | 'name' | 'workspace_id'>, eventType: ObjectEventType, extraData: Record<string, unknown> = {}): ObjectChange {
  return {
    objectType: 'project',
    objectId: project.id,
    eventType,
    parentProjectId: project.parent_id,
    parentItemId: null,
    workspaceId: project.workspace_id,
    extraData: { name: project.name, ...extraData },
  };
}
