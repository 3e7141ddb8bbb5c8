import type { EventObjectType } from '@doable/contracts-sync';
import { syncApiV1Writers } from '@doable/sync-dialects';
import type { EventObjectWriter } from '@doable/sync-engine';
import type { Filter, ItemRow, Label, Note, Project, Reminder, Section } from '@doable/sync-domain';

/**
 * The api/v1 shape of an object an event carries (webhooks' `event_data` at version '1'): the
 * same writers the api/v1 reads use, so a webhook shows a task as GET /api/v1/tasks/{id} would.
 */
export const writeEventObject: EventObjectWriter = (objectType: EventObjectType, object: object) => {
  switch (objectType) {
    case 'item':
      return syncApiV1Writers.item(object as ItemRow);
    case 'note':
      return syncApiV1Writers.note(object as Note);
    case 'project':
      return syncApiV1Writers.project(object as Project);
    case 'section':
      return syncApiV1Writers.section(object as Section);
    case 'label':
      return syncApiV1Writers.label(object as Label);
    case 'filter':
      return syncApiV1Writers.filter(object as Filter);
    case 'reminder':
      return syncApiV1Writers.reminder(object as Reminder);
  }
};
