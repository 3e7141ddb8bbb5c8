import { type FieldTable, TASK_FIELDS } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import type { AccountSnapshot, SnapshotDue, SnapshotNote, SnapshotReminder, SnapshotTask } from './account-snapshot';

/**
 * Reads the JSON of a full sync (`sync_token=*`, `resource_types=["all"]`) as any generation
 * answers it: api/v1 and v9 (string ids, colour names, `is_collapsed`/`collapsed`), v8 and older
 * (integer ids, colour numbers, 0/1 flags, `item_order`). What a user made is kept; what belongs
 * to the server (ids, versions, sync tokens, collaborators, workspaces, day orders) is not.
 * Deleted objects are skipped. Unknown keys are ignored: the hosted service adds keys often.
 */

/** The most objects one import takes (each becomes a command; plan limits apply besides). */
export const MAX_IMPORTED_OBJECTS = 50_000;

const id = z.union([z.string().min(1).max(100), z.number().int()]).transform(String);
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((value) => value === true || value === 1);
const order = z.number().int().nullish().transform((value) => value ?? null);
const text = (max: number) => z.string().max(max);
const color = z.union([z.string().max(32), z.number().int()]).nullish().transform((value) => value ?? null);

const due = z
  .object({
    date: z.string().max(64).nullish(),
    string: z.string().max(1_000).nullish(),
    timezone: z.string().max(64).nullish(),
    lang: z.string().max(8).nullish(),
  })
  .nullish()
  .transform((value): SnapshotDue | null =>
    value && (value.date || value.string) ? { date: value.date ?? null, string: value.string ?? null, timezone: value.timezone ?? null, lang: value.lang ?? null } : null,
  );

const project = z.object({
  id,
  name: text(1_024),
  parent_id: id.nullish(),
  color,
  child_order: order,
  item_order: order,
  view_style: z.string().max(32).nullish(),
  is_favorite: flag.optional(),
  inbox_project: flag.optional(),
  is_inbox_project: flag.optional(),
  is_archived: flag.optional(),
  is_deleted: flag.optional(),
  description: z.string().max(16_384).nullish(),
});

const section = z.object({
  id,
  project_id: id,
  name: text(2_048),
  section_order: order,
  order,
  is_archived: flag.optional(),
  is_deleted: flag.optional(),
});

/** The task's keys a restore reads itself: its own spellings, the aliases of older generations, and what a backup's JSON places it by. */
const readByHand = {
  id,
  project_id: id,
  section_id: id.nullish(),
  parent_id: id.nullish(),
  content: text(15_000),
  description: z.string().max(16_384).nullish(),
  priority: z.number().int().min(1).max(4).nullish(),
  child_order: order,
  item_order: order,
  labels: z.array(z.union([z.string().max(255), z.number().int()])).max(100).nullish(),
  due,
  deadline: z.object({ date: z.string().max(32), lang: z.string().max(8).nullish() }).nullish(),
  duration: z.object({ amount: z.number().int().positive(), unit: z.string().max(16) }).nullish(),
  collapsed: flag.optional(),
  is_collapsed: flag.optional(),
  checked: flag.optional(),
  completed_at: z.string().max(64).nullish(),
  date_completed: z.string().max(64).nullish(),
  is_deleted: flag.optional(),
};

export interface RestoredAsItIs {
  /** item_add's argument (the line's name). */
  readonly field: string;
  /** Its api/v1 key, as a backup's JSON has it. */
  readonly key: string;
  readonly schema: z.ZodType;
}

/**
 * The task fields a restore carries as they are (issue #46): each line of a task field table a
 * backup keeps (`backup`), written in api/v1 and taken by item_add, that the restore does not
 * read itself: a new line is restored with no edit here. A value item_add would refuse is left
 * out rather than losing the task.
 */
export function restoredAsTheyAre(table: FieldTable): RestoredAsItIs[] {
  return Object.entries(table).flatMap(([field, line]) => {
    const schema = line.args?.add;
    if (!line.backup || !schema || line.apiV1 === undefined || line.apiV1 in readByHand) return [];
    return [{ field, key: line.apiV1, schema }];
  });
}

const AS_THEY_ARE = restoredAsTheyAre(TASK_FIELDS);

/** A task as a restore reads it (exported for the spec that holds it to the task table's `backup` lines). */
export const restoredItem = z.object({ ...readByHand, ...Object.fromEntries(AS_THEY_ARE.map((input) => [input.key, z.unknown()])) });

/** The fields a restore carries as they are, from a task as read (null is nothing to carry). */
export function fieldsAsTheyAre(item: Readonly<Record<string, unknown>>, inputs: readonly RestoredAsItIs[] = AS_THEY_ARE): Record<string, unknown> {
  return Object.fromEntries(
    inputs.flatMap((input) => {
      const value = item[input.key];
      return value === undefined || value === null || !input.schema.safeParse(value).success ? [] : [[input.field, value]];
    }),
  );
}

const note = z.object({
  id,
  item_id: id.nullish(),
  project_id: id.nullish(),
  content: z.string().max(15_000).nullish(),
  file_attachment: z.record(z.string(), z.unknown()).nullish(),
  is_deleted: flag.optional(),
});

const label = z.object({
  id: id.optional(),
  name: text(255),
  color,
  item_order: order,
  order,
  is_favorite: flag.optional(),
  is_deleted: flag.optional(),
});

const filter = z.object({
  name: text(255),
  query: text(1_024),
  color,
  item_order: order,
  is_favorite: flag.optional(),
  is_deleted: flag.optional(),
});

const reminder = z.object({
  id,
  item_id: id,
  type: z.enum(['relative', 'absolute', 'location']).optional(),
  minute_offset: z.number().int().nullish(),
  mm_offset: z.number().int().nullish(),
  due,
  name: z.string().max(255).nullish(),
  loc_lat: z.union([z.string().max(32), z.number()]).nullish(),
  loc_long: z.union([z.string().max(32), z.number()]).nullish(),
  loc_trigger: z.string().max(16).nullish(),
  radius: z.number().int().nullish(),
  is_deleted: flag.optional(),
});

const fullSync = z.object({
  projects: z.array(project).max(MAX_IMPORTED_OBJECTS).default([]),
  sections: z.array(section).max(MAX_IMPORTED_OBJECTS).default([]),
  items: z.array(restoredItem).max(MAX_IMPORTED_OBJECTS).default([]),
  notes: z.array(note).max(MAX_IMPORTED_OBJECTS).default([]),
  project_notes: z.array(note).max(MAX_IMPORTED_OBJECTS).default([]),
  labels: z.array(label).max(MAX_IMPORTED_OBJECTS).default([]),
  filters: z.array(filter).max(MAX_IMPORTED_OBJECTS).default([]),
  reminders: z.array(reminder).max(MAX_IMPORTED_OBJECTS).default([]),
});

type FullSync = z.infer<typeof fullSync>;

/** Does this JSON look like a full sync at all (so a caller can tell it from other files)? */
export function looksLikeFullSync(value: unknown): boolean {
  return typeof value === 'object' && value !== null && ('items' in value || 'projects' in value);
}

function refused(explanation: string): DomainError {
  return new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: file', { argument: 'file', explanation });
}

export function snapshotOfFullSync(value: unknown): AccountSnapshot {
  if (!looksLikeFullSync(value)) throw refused('not the JSON of a full sync (no projects or items)');
  const parsed = fullSync.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw refused(`${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  const data = parsed.data;
  const total = Object.values(data).reduce((sum, list) => sum + list.length, 0);
  if (total > MAX_IMPORTED_OBJECTS) throw refused(`more than ${MAX_IMPORTED_OBJECTS} objects`);
  return toSnapshot(data);
}

function toSnapshot(data: FullSync): AccountSnapshot {
  const projects = data.projects.filter((p) => !p.is_deleted);
  const projectKeys = new Set(projects.map((p) => p.id));
  const sections = data.sections.filter((s) => !s.is_deleted && projectKeys.has(s.project_id));
  const sectionKeys = new Set(sections.map((s) => s.id));
  const items = data.items.filter((i) => !i.is_deleted && projectKeys.has(i.project_id));
  const itemKeys = new Set(items.map((i) => i.id));
  const labelNames = labelNamesById(data);
  return {
    projects: projects.map((p) => ({
      key: p.id,
      name: p.name,
      isInbox: Boolean(p.inbox_project ?? p.is_inbox_project),
      parentKey: p.parent_id && projectKeys.has(p.parent_id) ? p.parent_id : null,
      color: p.color,
      childOrder: p.child_order ?? p.item_order,
      viewStyle: p.view_style ?? null,
      isFavorite: Boolean(p.is_favorite),
      isArchived: Boolean(p.is_archived),
      description: p.description ?? null,
    })),
    sections: sections.map((s) => ({ key: s.id, projectKey: s.project_id, name: s.name, order: s.section_order ?? s.order, isArchived: Boolean(s.is_archived) })),
    tasks: items.map(
      (i): SnapshotTask => ({
        key: i.id,
        projectKey: i.project_id,
        sectionKey: i.section_id && sectionKeys.has(i.section_id) ? i.section_id : null,
        parentKey: i.parent_id && itemKeys.has(i.parent_id) ? i.parent_id : null,
        content: i.content,
        description: i.description ?? '',
        priority: i.priority ?? 1,
        childOrder: i.child_order ?? i.item_order,
        labels: (i.labels ?? []).map((value) => (typeof value === 'number' ? labelNames.get(String(value)) : value)).filter((name): name is string => Boolean(name)),
        due: i.due,
        deadline: i.deadline ? { date: i.deadline.date, lang: i.deadline.lang ?? null } : null,
        duration: i.duration ?? null,
        isCollapsed: Boolean(i.is_collapsed ?? i.collapsed),
        checked: Boolean(i.checked),
        completedAt: i.completed_at ?? i.date_completed ?? null,
        fields: fieldsAsTheyAre(i),
      }),
    ),
    notes: [
      ...data.notes.filter((n) => !n.is_deleted && n.item_id && itemKeys.has(n.item_id)).map((n): SnapshotNote => noteOf(n, n.item_id!, null)),
      ...data.project_notes.filter((n) => !n.is_deleted && n.project_id && projectKeys.has(n.project_id)).map((n): SnapshotNote => noteOf(n, null, n.project_id!)),
    ],
    labels: data.labels
      .filter((l) => !l.is_deleted)
      .map((l) => ({ name: l.name, color: l.color, order: l.item_order ?? l.order, isFavorite: Boolean(l.is_favorite) })),
    filters: data.filters
      .filter((f) => !f.is_deleted)
      .map((f) => ({ name: f.name, query: f.query, color: f.color, order: f.item_order, isFavorite: Boolean(f.is_favorite) })),
    reminders: data.reminders.filter((r) => !r.is_deleted && itemKeys.has(r.item_id)).map(reminderOf),
  };
}

/** v7 and older list an item's labels by label id. */
function labelNamesById(data: FullSync): Map<string, string> {
  return new Map(data.labels.flatMap((l) => (l.id === undefined ? [] : [[l.id, l.name] as const])));
}

function noteOf(n: z.infer<typeof note>, taskKey: string | null, projectKey: string | null): SnapshotNote {
  return { key: n.id, taskKey, projectKey, content: n.content ?? '', fileAttachment: n.file_attachment ?? null };
}

function reminderOf(r: z.infer<typeof reminder>): SnapshotReminder {
  const type = r.type ?? (r.loc_lat !== undefined && r.loc_lat !== null ? 'location' : r.due ? 'absolute' : 'relative');
  return {
    key: r.id,
    taskKey: r.item_id,
    type,
    minuteOffset: r.minute_offset ?? r.mm_offset ?? null,
    due: r.due,
    location:
      type === 'location' && r.loc_lat !== undefined && r.loc_lat !== null && r.loc_long !== undefined && r.loc_long !== null
        ? { name: r.name ?? '', lat: String(r.loc_lat), long: String(r.loc_long), trigger: r.loc_trigger ?? 'on_enter', radius: r.radius ?? null }
        : null,
  };
}

/** What a restore reads of each object beside tasks (restoredItem): the field tables' portability specs hold their `backup` lines to these. */
export const RESTORED_OBJECTS = { project, section, note, label, filter, reminder } as const;
