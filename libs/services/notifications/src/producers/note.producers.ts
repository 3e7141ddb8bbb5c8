import { SyncEvents, type NoteAdded } from '@doable/contracts-sync';
import type { LiveNotificationRepository } from '../store/live-notification.repository';
import { draftsFor, type RegisterProducer } from './notification-producer';

/**
 * A comment in a shared project: note_added to every member but its author, or, when the
 * client named whom to tell (uids_to_notify), to those of them who are members.
 */
export function noteProducers(register: RegisterProducer, notifications: LiveNotificationRepository): void {
  register('note-added', SyncEvents.noteAdded, (note: NoteAdded, tx) => {
    const members = new Set(note.memberIds);
    const receivers = note.uidsToNotify === null ? note.memberIds : note.uidsToNotify.filter((uid) => members.has(uid));
    return notifications.insert(
      tx.manager,
      draftsFor(receivers, note.actorId, (receiver) => ({
        // A note is added once: its id makes the key.
        key: `note_added:${note.noteId}:${receiver}`,
        type: 'note_added',
        fromUid: note.actorId,
        data: { ...(note.itemId === null ? {} : { item_id: note.itemId }), note_id: note.noteId, note_content: note.noteContent, project_id: note.projectId },
      })),
    );
  });
}
