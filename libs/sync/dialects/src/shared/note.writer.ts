import type { NoteRow } from '@doable/sync-domain';
import type { ApiComment } from '@doable/contracts-sync';
import { wireTimestampOf } from './wire-format';

/**
 * A comment as v9 and api/v1 send it. The SDK's NoteSchema has `item_id` and `project_id` both
 * optional but non-null, and its REST twin requires exactly one of them: a task comment carries
 * `item_id` and no `project_id` key, a project comment the reverse. `reactions` and
 * `uids_to_notify` are required but nullable; no reaction yet is null.
 */
export function writeNote(note: NoteRow): ApiComment {
  return {
    id: note.id,
    ...(note.item_id === null ? { project_id: note.project_id } : { item_id: note.item_id }),
    posted_uid: note.posted_uid,
    content: note.content,
    file_attachment: note.file_attachment,
    uids_to_notify: note.uids_to_notify,
    reactions: Object.keys(note.reactions).length > 0 ? note.reactions : null,
    is_deleted: note.is_deleted,
    posted_at: wireTimestampOf(note.posted_at),
  };
}
