import type { EventObjectType } from '@doable/contracts-sync';
import { syncApiV1Writers } from './dialects/sync-api-v1/sync-api-v1.writers';
import type { EventObjectWriter } from './engine/command-handler';
import type { Filter } from './filters/filter.model';
import type { ItemRow } from './items/item.model';
import type { Label } from './labels/label.model';
import type { Note } from './notes/note.model';
import type { Project } from './projects/project.model';
import type { Reminder } from './reminders/reminder.model';
import type { Section } from './sections/section.model';

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
