import type { ObjectEventType } from '@doable/contracts-sync';
import type { Section } from '@doable/sync-domain';
import type { ObjectChange } from '../../object-events';

/**
 * The object event of a section (SyncEvents.objectEvent, for webhooks): the one place its
 * `extra_data` (`name`) is decided. `section` is the section as the command left it.
 */
export function sectionChange(section: Section, eventType: ObjectEventType, extraData: Record<string, unknown> = {}): ObjectChange {
  return { objectType: 'section', objectId: section.id, eventType, parentProjectId: section.project_id, parentItemId: null, extraData: { name: section.name, ...extraData }, object: section };
}
