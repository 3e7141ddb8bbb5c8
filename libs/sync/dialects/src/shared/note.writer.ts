import type { NoteRow } from '@doable/sync-domain';
import { type ApiComment, COMMENT_FIELDS } from '@doable/contracts-sync';
import { fieldRowWriter, type Reads, type ReadsRow } from './field-writer';

/** Each field the comment writer reads is a field of the stored comment: a compile error otherwise. */
export type CommentTableReadsNotes = Reads<ReadsRow<NoteRow, typeof COMMENT_FIELDS>>;

/**
 * A comment as v9 and api/v1 send it, from the comment field table. The SDK's NoteSchema has
 * `item_id` and `project_id` both optional but non-null, and its REST twin requires exactly one
 * of them: a task comment carries `item_id` and no `project_id` key, a project comment the
 * reverse. `reactions` and `uids_to_notify` are required but nullable; no reaction yet is null.
 * Its keys are ApiComment's (ApiCommentFollowsTheTable).
 */
export const writeNote = fieldRowWriter<NoteRow>(COMMENT_FIELDS, 'apiV1') as (note: NoteRow) => ApiComment;
/** The v9 comment, from the comment field table (today the same keys as api/v1's). */
export const writeV9Note = fieldRowWriter<NoteRow>(COMMENT_FIELDS, 'v9');
