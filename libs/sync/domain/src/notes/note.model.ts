import { COMMENT_FIELDS, type FileAttachment } from '@doable/contracts-sync';
import { type Follows, type RowFollowsTable, selectList, timestampColumns, type TimestampField } from '../persistence/field-columns';
import { type WireTimestamps, withWireTimestamps } from '../persistence/wire-timestamps';

/** A comment's attachment as stored: the comment table's (contracts-sync). */
export type { FileAttachment } from '@doable/contracts-sync';

/** A comment: on a task (`item_id` set) or on a project (`item_id` null). */
export interface Note {
  id: string;
  /** The project the comment lives in: the task's project, or the commented project. */
  project_id: string;
  item_id: string | null;
  posted_uid: string;
  content: string;
  file_attachment: FileAttachment | null;
  uids_to_notify: string[] | null;
  /** Emoji to the ids of the users who reacted with it. */
  reactions: Record<string, string[]>;
  is_deleted: boolean;
  posted_at: Date;
  updated_at: Date;
  version: string;
}

/** Note has a key for each column of the comment table, and every key of it is a line of it: a compile error otherwise. */
export type NoteFollowsTheTable = Follows<RowFollowsTable<Note, typeof COMMENT_FIELDS>>;

/** The stored columns of a comment, from the comment field table. */
export const NOTE_COLUMNS = selectList(COMMENT_FIELDS);

/** NOTE_COLUMNS with the timestamps as wire text (see persistence/wire-timestamps.ts), for a full sync. */
export const NOTE_WIRE_COLUMNS = withWireTimestamps(NOTE_COLUMNS, timestampColumns(COMMENT_FIELDS));

/** A note read with NOTE_WIRE_COLUMNS. */
export type WireNote = WireTimestamps<Note, TimestampField<typeof COMMENT_FIELDS>>;

/** A note as the writers take it: timestamps as Dates, or already in wire text. */
export type NoteRow = Note | WireNote;
