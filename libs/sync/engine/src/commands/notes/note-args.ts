import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import type { FileAttachment } from '@doable/sync-domain';

/** The comment's field arguments are lines of the comment field table (COMMENT_ADD_ARGS, COMMENT_UPDATE_ARGS); the rest are here. */
export const reactionArg = z.string().trim().min(1).max(32);

/** Ids as the database stores them (bigint): a non-numeric user id is refused, not silently cast. */
export function userIds(values: ReadonlyArray<string | number>, argument: string): string[] {
  return values.map((value) => {
    const id = String(value);
    if (!/^\d{1,18}$/.test(id)) throw new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${argument}`, { argument });
    return id;
  });
}

/** A comment needs words or an attachment. */
export function checkNoteContent(content: string, attachment: FileAttachment | null): string {
  if (!content.trim() && !attachment) throw new DomainError('INVALID_ARGUMENT_VALUE', 'A comment needs content or a file attachment', { argument: 'content' });
  return content;
}
