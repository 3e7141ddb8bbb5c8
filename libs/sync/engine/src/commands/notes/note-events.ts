import type { ObjectEventType } from '@doable/contracts-sync';
import type { Note } from '@doable/sync-domain';
import type { ObjectChange } from '../../object-events';

/**
 * The object event of a comment (SyncEvents.objectEvent): the one place a note's `extra_data`
 * is decided. Its parent item is its task (null on a project comment); `fileUrl` names the
 * upload it carries, for uploads to link its record to the comment. `note` is the comment as the command left it.
 */
export function noteChange(note: Note, eventType: ObjectEventType, extraData: Record<string, unknown> = {}): ObjectChange {
  return {
    object: note,
    objectType: 'note',
    objectId: note.id,
    eventType,
    parentProjectId: note.project_id,
    parentItemId: note.item_id,
    extraData: { content: note.content, ...extraData },
    fileUrl: note.file_attachment?.file_url ?? null,
  };
}
