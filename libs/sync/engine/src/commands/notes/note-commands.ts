import { Injectable } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import { COMMENT_ADD_ARGS, COMMENT_UPDATE_ARGS, inProject, SyncEvents } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { activeMemberIds, type FileAttachment, ItemRepository, NoteRepository, ProjectRepository } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadItem } from '../items/item-access';
import { loadProject } from '../projects/project-access';
import { recordObjectEvents } from '../../object-events';
import { loadNote, requireAuthor } from './note-access';
import { noteChange } from './note-events';
import { checkNoteContent, reactionArg, userIds } from './note-args';

/**
 * A file attachment needs the acting user's `uploads` feature, whether it comes with the comment
 * (note_add) or later (note_update).
 */
async function requireUploadsFor(context: CommandContext, attachment: FileAttachment | null | undefined, current: FileAttachment | null = null): Promise<void> {
  // The attachment the comment already has, sent back unchanged with an edit, is no new upload.
  if (attachment && !isDeepStrictEqual(attachment, current)) await context.plan.requireFeature('uploads');
}

/**
 * note_add (+temp_id): a comment on a task (`item_id`) or on a project (`project_id`), never both.
 * Adding one needs the acting user's `comments` feature; the comments that exist stay theirs to
 * edit and delete whatever their plan becomes.
 */
@Injectable()
export class NoteAddCommand implements CommandHandler {
  readonly type = 'note_add';
  readonly policy = inProject('comment');
  private readonly schema = z.object(COMMENT_ADD_ARGS);

  constructor(
    private readonly notes: NoteRepository,
    private readonly items: ItemRepository,
    private readonly projects: ProjectRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    if (args.item_id !== undefined && args.project_id !== undefined) {
      throw new DomainError('INVALID_ARGUMENT_VALUE', 'A comment belongs to a task or to a project, not both', { argument: 'project_id' });
    }
    if (args.item_id === undefined && args.project_id === undefined) {
      throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: item_id', { argument: 'item_id' });
    }
    const attachment = args.file_attachment ?? null;
    const content = checkNoteContent(args.content, attachment);
    await context.plan.requireFeature('comments');
    await requireUploadsFor(context, attachment);
    const uidsToNotify = args.uids_to_notify ? userIds(args.uids_to_notify, 'uids_to_notify') : null;
    let projectId: string;
    let itemId: string | null = null;
    let itemContent: string | undefined;
    if (args.item_id !== undefined) {
      const item = await loadItem(this.items, context, args.item_id, 'item_id');
      projectId = item.project_id;
      itemId = item.id;
      itemContent = item.content;
    } else {
      projectId = (await loadProject(this.projects, context, args.project_id, 'project_id')).id;
    }
    const note = await this.notes.insert(context.tx.manager, { projectId, itemId, postedUid: context.userId, content, fileAttachment: attachment, uidsToNotify }, context.version);
    // In a shared project the other members hear of it (the notifications service decides who).
    const memberIds = await activeMemberIds(context.tx.manager, projectId);
    if (memberIds.length > 1) {
      await context.tx.emit(SyncEvents.noteAdded, { noteId: note.id, noteContent: content, itemId, projectId, actorId: context.userId, memberIds, uidsToNotify });
    }
    await recordObjectEvents(context, [noteChange(note, 'added', itemContent === undefined ? {} : { parent_item_content: itemContent })]);
    context.touch(projectId);
    return { createdId: note.id };
  }
}

/** note_update: content, attachment (null removes it) and who to notify; the author's own comments only. */
@Injectable()
export class NoteUpdateCommand implements CommandHandler {
  readonly type = 'note_update';
  readonly policy = inProject('comment');
  private readonly schema = z.object({ id: idArg, ...COMMENT_UPDATE_ARGS });

  constructor(private readonly notes: NoteRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const note = await loadNote(this.notes, context, args.id);
    requireAuthor(note, context);
    await requireUploadsFor(context, args.file_attachment, note.file_attachment);
    const attachment = args.file_attachment === undefined ? note.file_attachment : args.file_attachment;
    const content = checkNoteContent(args.content ?? note.content, attachment);
    const changed = content !== note.content || !isDeepStrictEqual(attachment, note.file_attachment);
    await this.notes.update(
      context.tx.manager,
      note.id,
      {
        content,
        file_attachment: attachment,
        uids_to_notify: args.uids_to_notify === undefined ? undefined : args.uids_to_notify === null ? null : userIds(args.uids_to_notify, 'uids_to_notify'),
      },
      context.version,
    );
    if (changed) await recordObjectEvents(context, [noteChange({ ...note, content, file_attachment: attachment, uids_to_notify: args.uids_to_notify === undefined ? note.uids_to_notify : args.uids_to_notify === null ? null : userIds(args.uids_to_notify, 'uids_to_notify') }, 'updated', { last_content: note.content })]);
    context.touch(note.project_id);
    return {};
  }
}

/** note_delete: the comment becomes a tombstone. */
@Injectable()
export class NoteDeleteCommand implements CommandHandler {
  readonly type = 'note_delete';
  readonly policy = inProject('comment');
  private readonly schema = z.object({ id: idArg });

  constructor(private readonly notes: NoteRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const note = await loadNote(this.notes, context, parseArgs(this.schema, rawArgs).id);
    requireAuthor(note, context);
    await this.notes.update(context.tx.manager, note.id, { is_deleted: true }, context.version);
    await recordObjectEvents(context, [noteChange({ ...note, is_deleted: true }, 'deleted')]);
    context.touch(note.project_id);
    return {};
  }
}

/** note_reaction_add / note_reaction_remove: the user's reaction with one emoji, on any comment they can see. */
abstract class NoteReactionCommand implements CommandHandler {
  readonly type: 'note_reaction_add' | 'note_reaction_remove';
  readonly policy = inProject('comment');
  private readonly schema = z.object({ id: idArg, reaction: reactionArg });

  protected constructor(
    private readonly notes: NoteRepository,
    private readonly adding: boolean,
  ) {
    this.type = adding ? 'note_reaction_add' : 'note_reaction_remove';
  }

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const note = await loadNote(this.notes, context, args.id);
    const reactions = { ...note.reactions };
    const reacted = (reactions[args.reaction] ?? []).includes(context.userId);
    // Reacting twice, or taking back a reaction never made, changes nothing and syncs nothing.
    if (reacted === this.adding) return {};
    const others = (reactions[args.reaction] ?? []).filter((uid) => uid !== context.userId);
    if (this.adding) reactions[args.reaction] = [...others, context.userId];
    else if (others.length > 0) reactions[args.reaction] = others;
    else delete reactions[args.reaction];
    await this.notes.update(context.tx.manager, note.id, { reactions }, context.version);
    context.touch(note.project_id);
    return {};
  }
}

@Injectable()
export class NoteReactionAddCommand extends NoteReactionCommand {
  constructor(notes: NoteRepository) {
    super(notes, true);
  }
}

@Injectable()
export class NoteReactionRemoveCommand extends NoteReactionCommand {
  constructor(notes: NoteRepository) {
    super(notes, false);
  }
}

export const NOTE_COMMANDS = [NoteAddCommand, NoteUpdateCommand, NoteDeleteCommand, NoteReactionAddCommand, NoteReactionRemoveCommand];
