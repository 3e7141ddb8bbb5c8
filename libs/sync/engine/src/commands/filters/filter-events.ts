import type { ObjectEventType } from '@doable/contracts-sync';
import type { Filter } from '@doable/sync-domain';
import type { ObjectChange } from '../../object-events';

/** The object event of a personal filter (SyncEvents.objectEvent, for webhooks): the one place its `extra_data` (`name`) is decided. A filter is in no project. */
export function filterChange(filter: Filter, eventType: ObjectEventType, extraData: Record<string, unknown> = {}): ObjectChange {
  return { objectType: 'filter', objectId: filter.id, eventType, parentProjectId: null, parentItemId: null, workspaceId: null, extraData: { name: filter.name, ...extraData }, object: filter };
}
