import { flag, idArg, storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { argShape, type DialectKey, type FieldTable } from './field-line';
import { wireId, wireTimestamp } from './wire-schemas';

const sectionNameArg = z.string().trim().min(1).max(2_048);

/**
 * The section's fields (sync.sections; `section` in every API but v7, which had none), one line
 * each, in the order api/v1 and v9 write them. What a line says and how it is derived:
 * field-line.ts and docs/architecture/adding-a-field.md. section-fields.spec.ts walks the table
 * against the golden answers, field-table-columns.integration-spec.ts (sync-domain) against the
 * migrations, section-fields-portability.spec.ts against backups and templates.
 *
 * Arguments the section commands take beside these: `id`, and v9's `collapsed` alias.
 */
export const SECTION_FIELDS = {
  id: { column: { type: 'bigint', nullable: false }, apiV1: 'id', v9: 'id', schema: wireId, restV2: { key: 'id', render: 'value' }, v8: ['id'], v7: ['id'], restV1: ['id'], backup: true, template: false, csv: [] },
  user_id: { column: { type: 'bigint', nullable: false }, apiV1: 'user_id', v9: 'user_id', schema: wireId, v8: ['user_id'], backup: false, template: false, csv: [] },
  project_id: {
    column: { type: 'bigint', nullable: false },
    args: { add: idArg },
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
  name: {
    column: { type: 'text', nullable: false },
    args: { add: sectionNameArg, update: sectionNameArg.optional() },
    apiV1: 'name',
    v9: 'name',
    schema: z.string(),
    restV2: { key: 'name', render: 'value' },
    v8: ['name'],
    v7: ['name'],
    restV1: ['name'],
    backup: true,
    // A template's section row (TYPE section).
    template: true,
    csv: ['CONTENT'],
  },
  description: { column: { type: 'text', nullable: true }, apiV1: 'description', schema: z.string().nullable(), backup: false, template: false, csv: [] },
  section_order: {
    column: { type: 'integer', nullable: false },
    args: { add: storedInteger.optional() },
    apiV1: 'section_order',
    v9: 'section_order',
    schema: z.int(),
    restV2: { key: 'order', render: 'value' },
    v8: ['section_order'],
    v7: ['section_order'],
    restV1: ['order'],
    backup: true,
    template: false,
    csv: [],
  },
  is_collapsed: {
    column: { type: 'boolean', nullable: false },
    args: { update: flag.optional() },
    apiV1: 'is_collapsed',
    v9: 'collapsed',
    schema: z.boolean(),
    v8: ['collapsed'],
    v7: ['collapsed'],
    backup: false,
    template: false,
    csv: [],
  },
  /** Written as null by the sync dialects that had one (a pre-v9 sharing artefact clients still read). */
  sync_id: { column: null, v9: 'sync_id', render: 'null', v8: ['sync_id'], backup: false, template: false, csv: [] },
  is_archived: { column: { type: 'boolean', nullable: false }, apiV1: 'is_archived', v9: 'is_archived', schema: z.boolean(), v8: ['is_archived'], v7: ['is_archived'], backup: true, template: false, csv: [] },
  is_deleted: { column: { type: 'boolean', nullable: false }, apiV1: 'is_deleted', v9: 'is_deleted', schema: z.boolean(), v8: ['is_deleted'], v7: ['is_deleted'], backup: true, template: false, csv: [] },
  archived_at: { column: { type: 'timestamptz', nullable: true }, apiV1: 'archived_at', v9: 'archived_at', render: 'timestamp', schema: wireTimestamp.nullable(), v8: ['date_archived'], backup: false, template: false, csv: [] },
  added_at: { column: { type: 'timestamptz', nullable: false }, apiV1: 'added_at', v9: 'added_at', render: 'timestamp', schema: wireTimestamp.nullable(), v8: ['date_added'], backup: false, template: false, csv: [] },
  updated_at: { column: { type: 'timestamptz', nullable: false }, apiV1: 'updated_at', render: 'timestamp', schema: wireTimestamp.nullable(), backup: false, template: false, csv: [] },
  version: { column: { type: 'bigint', nullable: false }, backup: false, template: false, csv: [] },
} as const satisfies FieldTable;

export type SectionFieldName = keyof typeof SECTION_FIELDS;
/** The keys of an api/v1 section, from the table. */
export type ApiV1SectionKey = DialectKey<typeof SECTION_FIELDS, 'apiV1'>;

/** section_add's arguments that are section fields. */
export const SECTION_ADD_ARGS = argShape(SECTION_FIELDS, 'add');
/** section_update's arguments that are section fields (the command adds `id` and `collapsed`). */
export const SECTION_UPDATE_ARGS = argShape(SECTION_FIELDS, 'update');
