import { DomainError } from '@doable/shared-errors';
import { type Note, type NoteRepository } from '@doable/sync-domain';
import type { CommandContext } from '../../command-handler';

/** The comment an argument names, if the user can see it; NOTE_NOT_FOUND otherwise (also for someone else's). */
export async function loadNote(notes: NoteRepository, context: CommandContext, value: unknown, argument = 'id'): Promise<Note> {
  const id = await context.resolveId(value, argument);
  const note = await notes.findVisibleForUpdate(context.tx.manager, context.userId, id);
  if (!note) throw new DomainError('NOTE_NOT_FOUND', 'Note not found', { argument, id });
  await context.requireAccess(note.project_id);
  return note;
}

/** Only a comment's author may edit it (a collaborator sees it but cannot rewrite it). */
export function requireAuthor(note: Note, context: CommandContext): void {
  if (note.posted_uid !== context.userId) throw new DomainError('FORBIDDEN', 'Only the author can change a comment', { argument: 'id' });
}
