import { flag, idArg, storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { argShape, type DialectKey, type FieldTable } from './field-line';
import type { ApiTask } from '../api-objects';
import { deadline, dueApiV1, dueV2, duration, wireId, wireNullableId, wireTimestamp } from './wire-schemas';

/** Argument pieces of the task commands. */
export const contentArg = z.string().max(15_000);
export const descriptionArg = z.string().max(16_384);
export const priorityArg = z.number().int().min(1).max(4);
export const labelsArg = z.array(z.string().trim().min(1).max(255)).max(100);
/** Dues, deadlines and durations are parsed by the domain's dates (ItemDates), which names what is wrong. */
const parsedByDates = z.unknown().optional();

/**
 * The task's fields (sync.items; `item` in the Sync API, `task` in REST), one line each, in the
 * order the api/v1 and v9 writers write them. Adding a field: a migration for its column, a line
 * here, and a test (README, "How to add a field"). field-tables.spec.ts walks this table against
 * the writers and the golden answers, field-columns.integration-spec.ts against the migrations.
 */
export const TASK_FIELDS = {
  id: { column: { type: 'bigint', nullable: false }, apiV1: 'id', v9: 'id', schema: wireId, restV2: { key: 'id', render: 'value' }, v8: ['id'], v7: ['id'], restV1: ['id'], backup: true, template: false, csv: [] },
  user_id: { column: { type: 'bigint', nullable: false }, apiV1: 'user_id', v9: 'user_id', schema: wireId, v8: ['user_id'], v7: ['user_id'], backup: false, template: false, csv: [] },
  project_id: {
    column: { type: 'bigint', nullable: false },
    args: { add: idArg.nullish() },
    apiV1: 'project_id',
    v9: 'project_id',
    schema: wireId,
    restV2: { key: 'project_id', render: 'value' },
    v8: ['project_id'],
    v7: ['project_id'],
    restV1: ['project_id'],
    backup: true,
    template: false,
    csv: [],
  },
  section_id: {
    column: { type: 'bigint', nullable: true },
    args: { add: idArg.nullish() },
    apiV1: 'section_id',
    v9: 'section_id',
    schema: wireNullableId,
    restV2: { key: 'section_id', render: 'value' },
    v8: ['section_id'],
    restV1: ['section_id'],
    backup: true,
    template: true,
    csv: [],
  },
  parent_id: {
    column: { type: 'bigint', nullable: true },
    args: { add: idArg.nullish() },
    apiV1: 'parent_id',
    v9: 'parent_id',
    schema: wireNullableId,
    restV2: { key: 'parent_id', render: 'value' },
    v8: ['parent_id'],
    // v7 placed a task by indent in a flat list; REST v1 kept `parent` for subtasks beside parent_id.
    v7: ['indent'],
    restV1: ['parent_id', 'parent?'],
    backup: true,
    template: true,
    csv: ['INDENT'],
  },
  content: {
    column: { type: 'text', nullable: false },
    args: { add: contentArg, update: contentArg.optional() },
    apiV1: 'content',
    v9: 'content',
    schema: z.string(),
    restV2: { key: 'content', render: 'value' },
    v8: ['content'],
    v7: ['content'],
    restV1: ['content'],
    backup: true,
    template: true,
    csv: ['CONTENT'],
  },
  description: {
    column: { type: 'text', nullable: false },
    args: { add: descriptionArg.default(''), update: descriptionArg.optional() },
    apiV1: 'description',
    v9: 'description',
    schema: z.string(),
    restV2: { key: 'description', render: 'value' },
    v8: ['description'],
    restV1: ['description'],
    backup: true,
    template: true,
    csv: ['DESCRIPTION'],
  },
  priority: {
    column: { type: 'smallint', nullable: false },
    args: { add: priorityArg.default(1), update: priorityArg.optional() },
    apiV1: 'priority',
    v9: 'priority',
    schema: z.int().min(1).max(4),
    restV2: { key: 'priority', render: 'value' },
    v8: ['priority'],
    v7: ['priority'],
    restV1: ['priority'],
    backup: true,
    template: true,
    csv: ['PRIORITY'],
  },
  due: {
    column: { type: 'jsonb', nullable: true },
    args: { add: parsedByDates, update: parsedByDates },
    apiV1: 'due',
    v9: 'due',
    render: 'due',
    schema: dueApiV1.nullable(),
    restV2: { key: 'due', render: 'due', schema: dueV2.nullable() },
    v8: ['due'],
    v7: ['due_date_utc', 'date_string', 'date_lang'],
    restV1: ['due?'],
    backup: true,
    template: true,
    csv: ['DATE', 'DATE_LANG', 'TIMEZONE'],
  },
  deadline: {
    column: { type: 'jsonb', nullable: true },
    args: { add: parsedByDates, update: parsedByDates },
    apiV1: 'deadline',
    v9: 'deadline',
    schema: deadline.nullable(),
    restV2: { key: 'deadline', render: 'value' },
    backup: true,
    template: true,
    csv: ['DEADLINE', 'DEADLINE_LANG'],
  },
  duration: {
    column: { type: 'jsonb', nullable: true },
    args: { add: parsedByDates, update: parsedByDates },
    apiV1: 'duration',
    v9: 'duration',
    schema: duration.nullable(),
    restV2: { key: 'duration', render: 'value' },
    backup: true,
    template: true,
    csv: ['DURATION', 'DURATION_UNIT'],
  },
  labels: {
    column: { type: 'text[]', nullable: false },
    args: { add: labelsArg.optional(), update: labelsArg.optional() },
    apiV1: 'labels',
    v9: 'labels',
    schema: z.array(z.string()),
    restV2: { key: 'labels', render: 'value' },
    // v8, v7 and REST v1 name a task's labels by their ids.
    v8: ['labels'],
    v7: ['labels'],
    restV1: ['label_ids'],
    backup: true,
    template: true,
    csv: ['CONTENT'],
  },
  child_order: {
    column: { type: 'integer', nullable: false },
    args: { add: storedInteger.optional() },
    apiV1: 'child_order',
    v9: 'child_order',
    schema: z.int(),
    restV2: { key: 'order', render: 'value' },
    v8: ['child_order'],
    v7: ['item_order'],
    restV1: ['order'],
    backup: true,
    template: true,
    csv: [],
  },
  day_order: {
    column: { type: 'integer', nullable: false },
    args: { add: storedInteger.default(-1), update: storedInteger.optional() },
    apiV1: 'day_order',
    v9: 'day_order',
    schema: z.int(),
    v8: ['day_order'],
    v7: ['day_order'],
    backup: false,
    template: false,
    csv: [],
  },
  checked: {
    column: { type: 'boolean', nullable: false },
    apiV1: 'checked',
    v9: 'checked',
    schema: z.boolean(),
    restV2: { key: 'is_completed', render: 'value' },
    v8: ['checked'],
    v7: ['checked'],
    restV1: ['completed'],
    backup: true,
    template: false,
    csv: [],
  },
  is_deleted: {
    column: { type: 'boolean', nullable: false },
    apiV1: 'is_deleted',
    v9: 'is_deleted',
    schema: z.boolean(),
    v8: ['is_deleted'],
    v7: ['is_deleted'],
    backup: true,
    template: false,
    csv: [],
  },
  added_by_uid: {
    column: { type: 'bigint', nullable: true },
    apiV1: 'added_by_uid',
    v9: 'added_by_uid',
    schema: wireNullableId,
    restV2: { key: 'creator_id', render: 'creator' },
    v8: ['added_by_uid'],
    restV1: ['creator'],
    backup: false,
    template: true,
    csv: ['AUTHOR'],
  },
  assigned_by_uid: {
    column: { type: 'bigint', nullable: true },
    args: { add: idArg.nullish(), update: idArg.nullish() },
    apiV1: 'assigned_by_uid',
    v9: 'assigned_by_uid',
    schema: wireNullableId,
    restV2: { key: 'assigner_id', render: 'value' },
    v8: ['assigned_by_uid'],
    v7: ['assigned_by_uid'],
    restV1: ['assigner'],
    backup: false,
    template: false,
    csv: [],
  },
  responsible_uid: {
    column: { type: 'bigint', nullable: true },
    args: { add: idArg.nullish(), update: idArg.nullish() },
    apiV1: 'responsible_uid',
    v9: 'responsible_uid',
    schema: wireNullableId,
    restV2: { key: 'assignee_id', render: 'value' },
    v8: ['responsible_uid'],
    v7: ['responsible_uid'],
    restV1: ['assignee?'],
    backup: false,
    template: true,
    csv: ['RESPONSIBLE'],
  },
  added_at: {
    column: { type: 'timestamptz', nullable: false },
    apiV1: 'added_at',
    v9: 'added_at',
    render: 'timestamp',
    schema: wireTimestamp.nullable(),
    restV2: { key: 'created_at', render: 'value', schema: z.string().nullable() },
    v8: ['date_added'],
    v7: ['date_added'],
    restV1: ['created'],
    backup: false,
    template: false,
    csv: [],
  },
  completed_at: {
    column: { type: 'timestamptz', nullable: true },
    apiV1: 'completed_at',
    v9: 'completed_at',
    render: 'timestamp',
    schema: wireTimestamp.nullable(),
    v8: ['date_completed'],
    backup: true,
    template: false,
    csv: [],
  },
  updated_at: {
    column: { type: 'timestamptz', nullable: false },
    apiV1: 'updated_at',
    v9: 'updated_at',
    render: 'timestamp',
    schema: wireTimestamp.nullable(),
    backup: false,
    template: false,
    csv: [],
  },
  is_collapsed: {
    column: { type: 'boolean', nullable: false },
    args: { add: flag.optional(), update: flag.optional() },
    apiV1: 'is_collapsed',
    v9: 'collapsed',
    schema: z.boolean(),
    v8: ['collapsed'],
    v7: ['collapsed'],
    backup: true,
    template: false,
    csv: [],
  },
  /** The task's live comments, where the read counted them. */
  note_count: {
    column: null,
    apiV1: 'note_count',
    render: 'count',
    schema: z.int().min(0),
    restV2: { key: 'comment_count', render: 'value' },
    restV1: ['comment_count'],
    backup: false,
    template: false,
    csv: [],
  },
  /** Written as null by the sync dialects that had one (a pre-v9 sharing artefact clients still read). */
  sync_id: { column: null, v9: 'sync_id', render: 'null', v8: ['sync_id'], v7: ['sync_id'], backup: false, template: false, csv: [] },
  /** The task's page in the web app. */
  url: { column: null, restV2: { key: 'url', render: 'url', schema: z.string() }, restV1: ['url'], backup: false, template: false, csv: [] },
  in_history: { column: { type: 'boolean', nullable: false }, v8: ['in_history'], v7: ['in_history'], backup: false, template: false, csv: [] },
  /** v7's flat list: subtasks were not nested, and an item was never archived on its own. */
  children: { column: null, v7: ['children'], backup: false, template: false, csv: [] },
  is_archived: { column: null, v7: ['is_archived'], backup: false, template: false, csv: [] },
  version: { column: { type: 'bigint', nullable: false }, backup: false, template: false, csv: [] },
} as const satisfies FieldTable;

export type TaskFieldName = keyof typeof TASK_FIELDS;
/** The keys of an api/v1 task, from the table. */
export type ApiV1TaskKey = DialectKey<typeof TASK_FIELDS, 'apiV1'>;
/** The keys of a v9 item, from the table. */
export type V9TaskKey = DialectKey<typeof TASK_FIELDS, 'v9'>;

/** item_add's arguments that are task fields (the command adds its aliases: `collapsed`, `label_ids`, ...). */
export const TASK_ADD_ARGS = argShape(TASK_FIELDS, 'add');
/** item_update's arguments that are task fields. */
export const TASK_UPDATE_ARGS = argShape(TASK_FIELDS, 'update');

type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
/** ApiTask (written by hand, read everywhere) has the table's api/v1 keys, no more and no fewer: a compile error otherwise. */
export type ApiTaskFollowsTheTable = Holds<Exactly<ApiV1TaskKey, keyof ApiTask>>;
