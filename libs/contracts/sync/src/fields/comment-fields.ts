import { idArg } from '@doable/contracts-common';
import { z } from 'zod';
import { argShape, type DialectKey, type FieldTable } from './field-line';
import { attachment, wireId, wireNullableId, wireTimestamp } from './wire-schemas';

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

const webUrl = z
  .string()
  .trim()
  .max(2_048)
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value), 'must be an http(s) URL');
const thumbnail = z.tuple([webUrl, z.number().int().nonnegative(), z.number().int().nonnegative()]);
const size = z.number().int().nonnegative();

/**
 * A comment's attachment: a file (uploaded or elsewhere, `file_url`) or a link (`url`). Unknown
 * keys are dropped; `resource_type`, which the SDKs require on the way back, defaults to "file".
 */
export const fileAttachmentArg = z
  .object({
    resource_type: z.string().trim().min(1).max(32).optional(),
    file_name: z.string().max(512).nullish(),
    file_size: size.nullish(),
    file_type: z.string().max(255).nullish(),
    file_url: webUrl.nullish(),
    file_duration: size.nullish(),
    upload_state: z.enum(['pending', 'completed']).nullish(),
    image: webUrl.nullish(),
    image_width: size.nullish(),
    image_height: size.nullish(),
    url: webUrl.nullish(),
    title: z.string().max(2_048).nullish(),
    tn_l: thumbnail.optional(),
    tn_m: thumbnail.optional(),
    tn_s: thumbnail.optional(),
  })
  .refine((attachment) => Boolean(attachment.file_url ?? attachment.url), 'needs file_url (or url for a link)')
  .transform((attachment): FileAttachment => {
    const stored = Object.fromEntries(Object.entries(attachment).filter(([, value]) => value !== undefined));
    return { ...stored, resource_type: attachment.resource_type ?? 'file' };
  });

export const noteContentArg = z.string().max(15_000);
export const uidsArg = z.array(idArg).max(100);

/**
 * The comment's fields (sync.notes; `note` and `project_note` in the Sync API, `comment` in
 * REST), one line each, in the order api/v1 and v9 write them. A comment is on a task
 * (`item_id` set) or on a project (`item_id` null): api/v1 and v9 write `item_id` on the one and
 * `project_id` on the other (the SDK's NoteSchema has both optional but non-null, and its REST
 * twin requires exactly one). What a line says and how it is derived: field-line.ts and
 * docs/architecture/adding-a-field.md. comment-fields.spec.ts walks the table against the golden
 * answers, field-table-columns.integration-spec.ts (sync-domain) against the migrations,
 * comment-fields-portability.spec.ts against backups and templates.
 *
 * Arguments the comment commands take beside these: `id` (note_update), `reaction`.
 */
export const COMMENT_FIELDS = {
  id: { column: { type: 'bigint', nullable: false }, apiV1: 'id', v9: 'id', schema: wireId, restV2: { key: 'id', render: 'value' }, v8: ['id'], v7: ['id'], restV1: ['id'], backup: true, template: false, csv: [] },
  item_id: {
    column: { type: 'bigint', nullable: true },
    args: { add: idArg.optional() },
    apiV1: 'item_id',
    v9: 'item_id',
    when: { set: 'item_id' },
    schema: wireId.optional().describe('Present when the comment is on a task.'),
    restV2: { key: 'task_id', render: 'value', schema: wireNullableId.describe('Null when the comment is on a project.') },
    v8: ['item_id?'],
    v7: ['item_id'],
    restV1: ['task_id?'],
    backup: true,
    template: false,
    csv: [],
  },
  /** The project the comment lives in: the task's project, or the commented project. */
  project_id: {
    column: { type: 'bigint', nullable: false },
    args: { add: idArg.optional() },
    apiV1: 'project_id',
    v9: 'project_id',
    when: { unset: 'item_id' },
    schema: wireId.optional().describe('Present when the comment is on a project.'),
    restV2: { key: 'project_id', render: 'value', schema: wireNullableId.describe('Null when the comment is on a task.') },
    // v8 and v7 write a task comment's project too.
    v8: ['project_id'],
    v7: ['project_id'],
    restV1: ['project_id?'],
    backup: true,
    template: false,
    csv: [],
  },
  posted_uid: {
    column: { type: 'bigint', nullable: false },
    apiV1: 'posted_uid',
    v9: 'posted_uid',
    schema: wireId,
    v8: ['posted_uid'],
    v7: ['posted_uid'],
    backup: false,
    // A template's comment names its author.
    template: true,
    csv: ['AUTHOR'],
  },
  content: {
    column: { type: 'text', nullable: false },
    args: { add: noteContentArg, update: noteContentArg.optional() },
    apiV1: 'content',
    v9: 'content',
    schema: z.string(),
    restV2: { key: 'content', render: 'value' },
    v8: ['content'],
    v7: ['content'],
    restV1: ['content'],
    backup: true,
    // A template's note row (TYPE note).
    template: true,
    csv: ['CONTENT'],
  },
  file_attachment: {
    column: { type: 'jsonb', nullable: true },
    // Null removes it.
    args: { add: fileAttachmentArg.nullish(), update: fileAttachmentArg.nullish() },
    apiV1: 'file_attachment',
    v9: 'file_attachment',
    schema: attachment.nullable(),
    restV2: { key: 'attachment', render: 'value' },
    v8: ['file_attachment'],
    v7: ['file_attachment'],
    restV1: ['attachment?'],
    backup: true,
    template: false,
    csv: [],
  },
  uids_to_notify: {
    column: { type: 'bigint[]', nullable: true },
    args: { add: uidsArg.nullish(), update: uidsArg.nullish() },
    apiV1: 'uids_to_notify',
    v9: 'uids_to_notify',
    schema: z.array(wireId).nullable(),
    v8: ['uids_to_notify'],
    v7: ['uids_to_notify'],
    backup: false,
    template: false,
    csv: [],
  },
  /** Emoji to the ids of the users who reacted with it; no reaction yet is null. */
  reactions: {
    column: { type: 'jsonb', nullable: false },
    apiV1: 'reactions',
    v9: 'reactions',
    emptyAsNull: true,
    schema: z.record(z.string(), z.array(wireId)).nullable(),
    v8: ['reactions'],
    backup: false,
    template: false,
    csv: [],
  },
  is_deleted: { column: { type: 'boolean', nullable: false }, apiV1: 'is_deleted', v9: 'is_deleted', schema: z.boolean(), v8: ['is_deleted'], v7: ['is_deleted'], backup: true, template: false, csv: [] },
  /** v7's comments could be archived with their task; never here. */
  is_archived: { column: null, fixed: 0, v7: ['is_archived'], backup: false, template: false, csv: [] },
  posted_at: {
    column: { type: 'timestamptz', nullable: false },
    apiV1: 'posted_at',
    v9: 'posted_at',
    render: 'timestamp',
    schema: wireTimestamp,
    restV2: { key: 'posted_at', render: 'value', schema: z.string() },
    v8: ['posted'],
    v7: ['posted'],
    restV1: ['posted'],
    backup: false,
    template: false,
    csv: [],
  },
  updated_at: { column: { type: 'timestamptz', nullable: false }, backup: false, template: false, csv: [] },
  version: { column: { type: 'bigint', nullable: false }, backup: false, template: false, csv: [] },
} as const satisfies FieldTable;

export type CommentFieldName = keyof typeof COMMENT_FIELDS;
/** The keys of an api/v1 comment, from the table. */
export type ApiV1CommentKey = DialectKey<typeof COMMENT_FIELDS, 'apiV1'>;

/** note_add's arguments that are comment fields (one of item_id and project_id: the command checks). */
export const COMMENT_ADD_ARGS = argShape(COMMENT_FIELDS, 'add');
/** note_update's arguments that are comment fields (the command adds `id`). */
export const COMMENT_UPDATE_ARGS = argShape(COMMENT_FIELDS, 'update');
