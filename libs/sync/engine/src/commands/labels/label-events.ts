import type { ObjectEventType } from '@doable/contracts-sync';
import type { Label } from '@doable/sync-domain';
import type { ObjectChange } from '../../object-events';

/** The object event of a personal label (SyncEvents.objectEvent, for webhooks): the one place its `extra_data` (`name`) is decided. A label is in no project. */
export function labelChange(label: Label, eventType: ObjectEventType, extraData: Record<string, unknown> = {}): ObjectChange {
  return { objectType: 'label', objectId: label.id, eventType, parentProjectId: null, parentItemId: null, workspaceId: null, extraData: { name: label.name, ...extraData }, object: label };
}
