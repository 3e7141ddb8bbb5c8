import { flag, storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { argShape, type DialectKey, type FieldTable } from './field-line';
import { colorArg } from './shared-args';
import { wireId } from './wire-schemas';

/** Argument pieces of the filter commands (a user's own, filter_*, and a workspace's, workspace_filter_*, alike). */
export const filterNameArg = z.string().trim().min(1).max(1_024);
/** The query is stored as written: clients evaluate it, the server does not. */
export const filterQueryArg = z.string().trim().min(1).max(4_096);
const filterDescriptionArg = z.string().max(16_384).nullable().optional();

/**
 * The saved filter's fields (sync.filters; `filter` in the Sync API, which REST does not
 * have), one line each, in the order api/v1 and v9 write them. What a line says and how it is
 * derived: field-line.ts and docs/architecture/adding-a-field.md. filter-fields.spec.ts walks the
 * table against the golden answers, field-table-columns.integration-spec.ts (sync-domain)
 * against the migrations, filter-fields-portability.spec.ts against backups.
 *
 * Arguments the filter commands take beside these: `id` (updates), `workspace_id` (a workspace's).
 */
export const FILTER_FIELDS = {
  id: { column: { type: 'bigint', nullable: false }, apiV1: 'id', v9: 'id', schema: wireId, v8: ['id'], v7: ['id'], backup: false, template: false, csv: [] },
  user_id: { column: { type: 'bigint', nullable: false }, backup: false, template: false, csv: [] },
  name: {
    column: { type: 'text', nullable: false },
    args: { add: filterNameArg, update: filterNameArg.optional() },
    apiV1: 'name',
    v9: 'name',
    schema: z.string(),
    v8: ['name'],
    v7: ['name'],
    backup: true,
    template: false,
    csv: [],
  },
  query: {
    column: { type: 'text', nullable: false },
    args: { add: filterQueryArg, update: filterQueryArg.optional() },
    apiV1: 'query',
    v9: 'query',
    schema: z.string(),
    v8: ['query'],
    v7: ['query'],
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
    // v8 writes the colour's integer, v7 the label palette's index (filters took the label palette).
    v8: ['color'],
    v7: ['color'],
    backup: true,
    template: false,
    csv: [],
  },
  item_order: {
    column: { type: 'integer', nullable: false },
    args: { add: storedInteger.optional(), update: storedInteger.optional() },
    apiV1: 'item_order',
    v9: 'item_order',
    schema: z.int(),
    v8: ['item_order'],
    v7: ['item_order'],
    backup: true,
    template: false,
    csv: [],
  },
  is_deleted: { column: { type: 'boolean', nullable: false }, apiV1: 'is_deleted', v9: 'is_deleted', schema: z.boolean(), v8: ['is_deleted'], v7: ['is_deleted'], backup: true, template: false, csv: [] },
  is_favorite: {
    column: { type: 'boolean', nullable: false },
    args: { add: flag.optional(), update: flag.optional() },
    apiV1: 'is_favorite',
    v9: 'is_favorite',
    schema: z.boolean(),
    v8: ['is_favorite'],
    backup: true,
    template: false,
    csv: [],
  },
  /** The SDKs' sync filter schema requires it; no plan freezes filters yet. */
  is_frozen: { column: null, apiV1: 'is_frozen', v9: 'is_frozen', fixed: false, schema: z.boolean(), backup: false, template: false, csv: [] },
  description: {
    column: { type: 'text', nullable: true },
    args: { add: filterDescriptionArg, update: filterDescriptionArg },
    apiV1: 'description',
    schema: z.string().nullable(),
    backup: false,
    template: false,
    csv: [],
  },
  created_at: { column: { type: 'timestamptz', nullable: false }, backup: false, template: false, csv: [] },
  updated_at: { column: { type: 'timestamptz', nullable: false }, backup: false, template: false, csv: [] },
  version: { column: { type: 'bigint', nullable: false }, backup: false, template: false, csv: [] },
} as const satisfies FieldTable;

export type FilterFieldName = keyof typeof FILTER_FIELDS;
/** The keys of an api/v1 filter, from the table. */
export type ApiV1FilterKey = DialectKey<typeof FILTER_FIELDS, 'apiV1'>;

/** filter_add's (and workspace_filter_add's) arguments that are filter fields. */
export const FILTER_ADD_ARGS = argShape(FILTER_FIELDS, 'add');
/** filter_update's (and workspace_filter_update's) arguments that are filter fields. */
export const FILTER_UPDATE_ARGS = argShape(FILTER_FIELDS, 'update');
