import { flag, storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { argShape, type DialectKey, type FieldTable } from './field-line';
import { colorArg } from './shared-args';
import { wireId } from './wire-schemas';

/** A label's name: the same bounds as a label name on a task (the task table's labelsArg), so the two always fit each other. */
export const labelNameArg = z.string().trim().min(1).max(255);

/**
 * The personal label's fields (sync.labels; `label` in every API), one line each, in the order
 * api/v1 and v9 write them. What a line says and how it is derived: field-line.ts and
 * docs/architecture/adding-a-field.md. label-fields.spec.ts walks the table against the golden
 * answers, field-table-columns.integration-spec.ts (sync-domain) against the migrations,
 * label-fields-portability.spec.ts against backups. Tasks carry label names, not labels: a
 * template or CSV carries them as the task's (TASK_FIELDS.labels), no label row.
 *
 * Arguments the label commands take beside these: `id`.
 */
export const LABEL_FIELDS = {
  id: { column: { type: 'bigint', nullable: false }, apiV1: 'id', v9: 'id', schema: wireId, restV2: { key: 'id', render: 'value' }, v8: ['id'], v7: ['id'], restV1: ['id'], backup: true, template: false, csv: [] },
  user_id: { column: { type: 'bigint', nullable: false }, backup: false, template: false, csv: [] },
  name: {
    column: { type: 'text', nullable: false },
    args: { add: labelNameArg, update: labelNameArg.optional() },
    apiV1: 'name',
    v9: 'name',
    schema: z.string(),
    restV2: { key: 'name', render: 'value' },
    v8: ['name'],
    v7: ['name'],
    restV1: ['name'],
    backup: true,
    template: false,
    csv: [],
  },
  color: {
    column: { type: 'text', nullable: false },
    args: { add: colorArg.optional(), update: colorArg.optional() },
    apiV1: 'color',
    v9: 'color',
    schema: z.string(),
    restV2: { key: 'color', render: 'value' },
    // v8 and REST v1 write the colour's integer, v7 its legacy index.
    v8: ['color'],
    v7: ['color'],
    restV1: ['color'],
    backup: true,
    template: false,
    csv: [],
  },
  /** The Sync API's name for the label's order; api/v1 writes it as `order` too, and its REST surface only as that. */
  item_order: {
    column: { type: 'integer', nullable: false },
    args: { add: storedInteger.optional(), update: storedInteger.optional() },
    apiV1: 'item_order',
    v9: 'item_order',
    syncOnly: true,
    schema: z.int(),
    restV2: { key: 'order', render: 'value', schema: z.int() },
    v8: ['item_order'],
    v7: ['item_order'],
    restV1: ['order'],
    backup: true,
    template: false,
    csv: [],
  },
  is_deleted: { column: { type: 'boolean', nullable: false }, apiV1: 'is_deleted', v9: 'is_deleted', syncOnly: true, schema: z.boolean(), v8: ['is_deleted'], v7: ['is_deleted'], backup: true, template: false, csv: [] },
  is_favorite: {
    column: { type: 'boolean', nullable: false },
    args: { add: flag.optional(), update: flag.optional() },
    apiV1: 'is_favorite',
    v9: 'is_favorite',
    schema: z.boolean(),
    restV2: { key: 'is_favorite', render: 'value' },
    v8: ['is_favorite'],
    restV1: ['favorite'],
    backup: true,
    template: false,
    csv: [],
  },
  /** The v1 SDKs' label schema requires `order` (nullable): the label's item_order. */
  order: { column: null, apiV1: 'order', from: 'item_order', schema: z.int().nullable(), backup: false, template: false, csv: [] },
  created_at: { column: { type: 'timestamptz', nullable: false }, backup: false, template: false, csv: [] },
  updated_at: { column: { type: 'timestamptz', nullable: false }, backup: false, template: false, csv: [] },
  version: { column: { type: 'bigint', nullable: false }, backup: false, template: false, csv: [] },
} as const satisfies FieldTable;

export type LabelFieldName = keyof typeof LABEL_FIELDS;
/** The keys of an api/v1 label (sync), from the table. */
export type ApiV1LabelKey = DialectKey<typeof LABEL_FIELDS, 'apiV1'>;

/** label_add's arguments that are label fields. */
export const LABEL_ADD_ARGS = argShape(LABEL_FIELDS, 'add');
/** label_update's arguments that are label fields (the command adds `id`). */
export const LABEL_UPDATE_ARGS = argShape(LABEL_FIELDS, 'update');
