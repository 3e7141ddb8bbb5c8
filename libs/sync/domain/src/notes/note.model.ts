import { type WireTimestamps, withWireTimestamps } from '../persistence/wire-timestamps';

/**
 * A file or link attached to a comment, as the SDKs validate it (`resource_type` required,
 * everything else optional). Stored as sent, after validation, with unknown keys dropped.
 */
export interface FileAttachment {
  resource_type: string;
  file_name?: string | null;
  file_size?: number | null;
  file_type?: string | null;
  file_url?: string | null;
  file_duration?: number | null;
  upload_state?: 'pending' | 'completed' | null;
  image?: string | null;
  image_width?: number | null;
  image_height?: number | null;
  url?: string | null;
  title?: string | null;
  tn_l?: [string, number, number];
  tn_m?: [string, number, number];
  tn_s?: [string, number, number];
}

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

export const NOTE_COLUMNS = `id::text, project_id::text, item_id::text, posted_uid::text, content, file_attachment,
  uids_to_notify::text[] AS uids_to_notify, reactions, is_deleted, posted_at, updated_at, version::text`;

/** NOTE_COLUMNS with the timestamps as wire text (see persistence/wire-timestamps.ts), for a full sync. */
export const NOTE_WIRE_COLUMNS = withWireTimestamps(NOTE_COLUMNS, ['posted_at', 'updated_at']);

/** A note read with NOTE_WIRE_COLUMNS. */
export type WireNote = WireTimestamps<Note, 'posted_at' | 'updated_at'>;

/** A note as the writers take it: timestamps as Dates, or already in wire text. */
export type NoteRow = Note | WireNote;
