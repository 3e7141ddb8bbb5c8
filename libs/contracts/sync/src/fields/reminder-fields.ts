import { flag, idArg, storedInteger } from '@doable/contracts-common';
import { z } from 'zod';
import { argShape, type DialectKey, type FieldTable } from './field-line';
import { dueApiV1, wireId } from './wire-schemas';

export const REMINDER_TYPES = ['relative', 'absolute', 'location'] as const;
export const LOCATION_TRIGGERS = ['on_enter', 'on_leave'] as const;
/** The delivery service a legacy client (v8, v7, v6) may name; later versions have none. */
export const REMINDER_SERVICES = ['default', 'email', 'mobile', 'push', 'no_default'] as const;

const coordinate = (limit: number) =>
  z
    .union([z.string().trim().max(32), z.number()])
    .transform((value) => String(value))
    .refine((value) => /^-?\d+(\.\d+)?$/.test(value) && Math.abs(Number(value)) <= limit, `must be a number between -${limit} and ${limit}`);

/**
 * The reminder commands' arguments are the same for an add and an update (all optional: which
 * a reminder needs depends on its type, and the command says what is missing).
 */
const both = <S extends z.ZodType>(schema: S) => ({ add: schema, update: schema });

/** Time reminders and location reminders each write the keys of their own kind. */
const timeOnly = { when: { field: 'type', in: ['absolute', 'relative'] } } as const;
const locationOnly = { when: { field: 'type', in: ['location'] } } as const;

/**
 * The reminder's fields (sync.reminders; `reminder` in the Sync API, and `reminders_location`
 * for the location ones; REST has none), one line each, in the order api/v1 and v9 write them.
 * A reminder's object is the union the SDK's ReminderSchema validates, each type its own keys:
 * - absolute: `due` (required and non-null in sdk 10.5/11) and `minute_offset: null`;
 * - relative: `minute_offset`, and no `due` key (sdk 10.5/11 declare it optional but non-null);
 *   v9, which no validating client reads, writes the spec's `due: null`;
 * - location: `name, loc_lat, loc_long, loc_trigger, radius`.
 * The command stores a type's own fields only (the others null), so each key reads its column.
 * What a line says and how it is derived: field-line.ts and docs/architecture/adding-a-field.md.
 * reminder-fields.spec.ts walks the table against the golden answers,
 * field-table-columns.integration-spec.ts (sync-domain) against the migrations,
 * reminder-fields-portability.spec.ts against backups.
 *
 * Arguments the reminder commands take beside these: `id` (updates).
 */
export const REMINDER_FIELDS = {
  id: { column: { type: 'bigint', nullable: false }, apiV1: 'id', v9: 'id', schema: wireId, v8: ['id'], v7: ['id'], backup: true, template: false, csv: [] },
  notify_uid: {
    column: { type: 'bigint', nullable: false },
    args: both(idArg.optional()),
    apiV1: 'notify_uid',
    v9: 'notify_uid',
    schema: wireId,
    v8: ['notify_uid'],
    v7: ['notify_uid'],
    backup: false,
    template: false,
    csv: [],
  },
  item_id: {
    column: { type: 'bigint', nullable: false },
    args: { add: idArg },
    apiV1: 'item_id',
    v9: 'item_id',
    schema: wireId,
    v8: ['item_id'],
    v7: ['item_id'],
    backup: true,
    template: false,
    csv: [],
  },
  /** The task's project (kept in step with the task by the notes-and-reminders migration). */
  project_id: { column: { type: 'bigint', nullable: false }, apiV1: 'project_id', v9: 'project_id', schema: wireId, backup: false, template: false, csv: [] },
  is_deleted: { column: { type: 'boolean', nullable: false }, apiV1: 'is_deleted', v9: 'is_deleted', schema: z.boolean(), v8: ['is_deleted'], v7: ['is_deleted'], backup: true, template: false, csv: [] },
  type: {
    column: { type: 'text', nullable: false },
    args: both(z.enum(REMINDER_TYPES).optional()),
    apiV1: 'type',
    v9: 'type',
    schema: z.enum(REMINDER_TYPES),
    v8: ['type'],
    v7: ['type'],
    backup: true,
    template: false,
    csv: [],
  },
  /** Parsed by the domain's dates (ItemDates), which names what is wrong. */
  due: {
    column: { type: 'jsonb', nullable: true },
    args: both(z.unknown().optional()),
    apiV1: 'due',
    v9: 'due',
    render: 'due',
    when: { field: 'type', in: ['absolute'] },
    schema: dueApiV1.nullable(),
    v9When: timeOnly.when,
    v8: ['due?'],
    // v7 wrote an absolute reminder's due as its task's: date_string, date_lang, due_date_utc.
    v7: ['due_date_utc?', 'date_string?', 'date_lang?'],
    backup: true,
    template: false,
    csv: [],
  },
  /** The relative reminder's minutes before its task's due (v8 and v7 `mm_offset`); null on an absolute one. */
  minute_offset: {
    column: { type: 'integer', nullable: true },
    args: both(storedInteger.min(0).max(525_600).optional()),
    apiV1: 'minute_offset',
    v9: 'minute_offset',
    ...timeOnly,
    schema: z.int().nullable(),
    v8: ['mm_offset?'],
    v7: ['mm_offset?'],
    backup: true,
    template: false,
    csv: [],
  },
  is_urgent: { column: { type: 'boolean', nullable: false }, args: both(flag.optional()), apiV1: 'is_urgent', v9: 'is_urgent', ...timeOnly, schema: z.boolean(), backup: false, template: false, csv: [] },
  name: {
    column: { type: 'text', nullable: true },
    args: both(z.string().trim().min(1).max(255).optional()),
    apiV1: 'name',
    v9: 'name',
    ...locationOnly,
    absent: '',
    schema: z.string(),
    v8: ['name?'],
    v7: ['name?'],
    backup: true,
    template: false,
    csv: [],
  },
  loc_lat: { column: { type: 'text', nullable: true }, args: both(coordinate(90).optional()), apiV1: 'loc_lat', v9: 'loc_lat', ...locationOnly, absent: '0', schema: z.string(), v8: ['loc_lat?'], v7: ['loc_lat?'], backup: true, template: false, csv: [] },
  loc_long: { column: { type: 'text', nullable: true }, args: both(coordinate(180).optional()), apiV1: 'loc_long', v9: 'loc_long', ...locationOnly, absent: '0', schema: z.string(), v8: ['loc_long?'], v7: ['loc_long?'], backup: true, template: false, csv: [] },
  loc_trigger: {
    column: { type: 'text', nullable: true },
    args: both(z.enum(LOCATION_TRIGGERS).optional()),
    apiV1: 'loc_trigger',
    v9: 'loc_trigger',
    ...locationOnly,
    absent: 'on_enter',
    schema: z.enum(LOCATION_TRIGGERS),
    v8: ['loc_trigger?'],
    v7: ['loc_trigger?'],
    backup: true,
    template: false,
    csv: [],
  },
  radius: { column: { type: 'integer', nullable: true }, args: both(storedInteger.min(1).max(1_000_000).optional()), apiV1: 'radius', v9: 'radius', ...locationOnly, absent: 0, schema: z.int(), v8: ['radius?'], v7: ['radius?'], backup: true, template: false, csv: [] },
  /** As a legacy client sent it (null when none did); only the legacy generations write it (`push` when none was given). */
  service: { column: { type: 'text', nullable: true }, args: both(z.enum(REMINDER_SERVICES).optional()), v8: ['service'], v7: ['service'], backup: false, template: false, csv: [] },
  added_at: { column: { type: 'timestamptz', nullable: false }, backup: false, template: false, csv: [] },
  updated_at: { column: { type: 'timestamptz', nullable: false }, backup: false, template: false, csv: [] },
  version: { column: { type: 'bigint', nullable: false }, backup: false, template: false, csv: [] },
  /** The due the reminder service last fired it for (its own bookkeeping, reminder-firing.repository.ts). */
  fired_for: { column: { type: 'timestamptz', nullable: true }, internal: true, backup: false, template: false, csv: [] },
} as const satisfies FieldTable;

export type ReminderFieldName = keyof typeof REMINDER_FIELDS;
/** The keys of an api/v1 reminder, from the table. */
export type ApiV1ReminderKey = DialectKey<typeof REMINDER_FIELDS, 'apiV1'>;

/** reminder_add's arguments that are reminder fields. */
export const REMINDER_ADD_ARGS = argShape(REMINDER_FIELDS, 'add');
/** reminder_update's arguments that are reminder fields (the command adds `id`). */
export const REMINDER_UPDATE_ARGS = argShape(REMINDER_FIELDS, 'update');
