import type { FilterRow, ItemRow, LabelRow, NoteRow, ProjectRow, ReminderRow, SectionRow, UserProfile } from '@doable/sync-domain';
import { avatarUrls, type FieldLine, type FieldTable, TASK_FIELDS } from '@doable/contracts-sync';
import { writeCompletedInfo } from '../shared/completed-info.writer';
import { writeDue } from '../shared/item-fields';
import { writeReminder } from '../shared/reminder.writer';
import { writeSyncUser } from '../shared/user.writers';
import { writeProjectViewOptionsDefaults, writeViewOptions } from '../shared/view-options.writers';
import { flag, integerId, integerIdOrNull, labelIdsOf, type LabelIdLookup, v8ColorOf, v8Timestamp, writeLegacyCollaborator, writeLegacyCollaboratorState } from '../legacy';
import type { ObjectWriters } from '../shared/sync-dialect';

/**
 * Sync v8 (`/sync/v8/sync`), after the v8 docs (Doist's Slate source, v8 draft `_items.md`,
 * `_projects.md`, `_notes.md`, `_projectnotes.md`, `_labels.md`, `_filters.md`, `_reminders.md`;
 * the archived todoist-python, which speaks v8) and sync-interface §2 and §9: integer ids,
 * colours as integers 30..49, timestamps without fractions, 0/1 for most flags, `date_added`,
 * `date_completed`, `posted`, `mm_offset`, and a task's labels as label ids.
 *
 * Where the sources are silent, guessed (and so marked below): the draft predates sections,
 * `parent_id`/`child_order` and `description`, which v8 GA had; v9-and-later fields (deadline,
 * duration, updated_at, note_count, view options) are not written.
 */

/** A timestamp the domain holds as a Date, or as wire text already (ITEM_WIRE_COLUMNS), in v8's form. */
function v8TimestampOrNull(value: Date | string | null): string | null {
  if (value === null) return null;
  // Wire text is `YYYY-MM-DDTHH:MM:SS.ffffffZ`: its seconds are v8's timestamp.
  return typeof value === 'string' ? `${value.slice(0, 19)}Z` : v8Timestamp(new Date(value));
}

type ReadV8 = (item: ItemRow, labelIds: LabelIdLookup) => unknown;

/**
 * How v8 writes a task field, from its line: v8's conventions by the column's type (ids as
 * integers, flags as 0/1, timestamps without fractions, labels as the ids of the user's labels),
 * the due object as v9 writes it, and null for a key written as null always.
 */
function v8Read(name: string, line: FieldLine): ReadV8 {
  if (line.render === 'null') return () => null;
  if (line.render === 'due') return (item) => writeDue(item.due);
  if (!line.column) throw new Error(`v8 writes no computed task field (${name})`);
  const field = name as keyof ItemRow;
  switch (line.column.type) {
    case 'bigint':
      return line.column.nullable ? (item) => integerIdOrNull(item[field] as string | null) : (item) => integerId(item[field] as string);
    case 'boolean':
      return (item) => flag(item[field] as boolean);
    case 'timestamptz':
      return (item) => v8TimestampOrNull(item[field] as Date | string | null);
    case 'text[]':
      return (item, labelIds) => labelIdsOf(item[field] as readonly string[], labelIds);
    case 'bigint[]':
      return (item) => (item[field] as readonly string[] | null)?.map(integerId) ?? null;
    case 'text':
    case 'smallint':
    case 'integer':
    case 'jsonb':
      return (item) => item[field];
  }
}

/** The v8 task writer of a task field table: each line with a v8 key (one each), in the table's order. */
export function v8TaskWriter(table: FieldTable): (item: ItemRow, labelIds: LabelIdLookup) => Record<string, unknown> {
  const fields = Object.entries(table).flatMap(([name, line]) => {
    if (!line.v8) return [];
    const [key, ...more] = line.v8;
    if (key === undefined || more.length > 0) throw new Error(`v8 writes the task field ${name} under one key`);
    return [{ key, read: v8Read(name, line) }];
  });
  return (item, labelIds) => {
    const written: Record<string, unknown> = {};
    for (const field of fields) written[field.key] = field.read(item, labelIds);
    return written;
  };
}

/**
 * A task as v8 wrote it, from the task field table's v8 keys. Labels are the ids of the user's
 * personal labels; a name on the task that is no personal label of the user's (a shared label,
 * v9's notion) has no id and is left out (guessed: v8 had no shared labels). `in_history` is the
 * domain's flag (v8 docs; v9 dropped it). `all_day` is not written: it was a v7 field (items'
 * `due_date` + `all_day`), and v8's due object says the same by a date without a time.
 * `description` (GA v8, not in the draft) is.
 *
 * Also the writer v8 quick add (`/sync/v8/quick/add`) answers with.
 */
export const writeV8Item = v8TaskWriter(TASK_FIELDS);

/** A project: `collapsed`, `is_deleted`, `is_archived`, `is_favorite` as 0/1; `shared` stayed a boolean (v8 docs). */
export function writeV8Project(project: ProjectRow): Record<string, unknown> {
  return {
    id: integerId(project.id),
    name: project.name,
    color: v8ColorOf(project.color),
    parent_id: integerIdOrNull(project.parent_id),
    child_order: project.child_order,
    collapsed: flag(project.is_collapsed),
    shared: project.shared,
    is_deleted: flag(project.is_deleted),
    is_archived: flag(project.is_archived),
    is_favorite: flag(project.is_favorite),
    sync_id: null,
    ...(project.inbox_project ? { inbox_project: true } : {}),
  };
}

/** A section as sync-interface §2 "Section (v8)" lists it: its flags are booleans, its dates `date_*`. */
export function writeV8Section(section: SectionRow): Record<string, unknown> {
  return {
    id: integerId(section.id),
    name: section.name,
    project_id: integerId(section.project_id),
    section_order: section.section_order,
    collapsed: section.is_collapsed,
    user_id: integerId(section.user_id),
    sync_id: null,
    is_deleted: section.is_deleted,
    is_archived: section.is_archived,
    date_archived: v8TimestampOrNull(section.archived_at),
    date_added: v8TimestampOrNull(section.added_at),
  };
}

export function writeV8Label(label: LabelRow): Record<string, unknown> {
  return {
    id: integerId(label.id),
    name: label.name,
    color: v8ColorOf(label.color),
    item_order: label.item_order,
    is_deleted: flag(label.is_deleted),
    is_favorite: flag(label.is_favorite),
  };
}

export function writeV8Filter(filter: FilterRow): Record<string, unknown> {
  return {
    id: integerId(filter.id),
    name: filter.name,
    query: filter.query,
    color: v8ColorOf(filter.color),
    item_order: filter.item_order,
    is_deleted: flag(filter.is_deleted),
    is_favorite: flag(filter.is_favorite),
  };
}

/**
 * A comment, task or project (v8 `notes` and `project_notes` share the shape, sync-interface §2):
 * `posted`, integer user ids in `uids_to_notify` and `reactions`. A task comment carries its
 * project too (v8 docs example); no reaction yet is null, as in v9.
 */
export function writeV8Note(note: NoteRow): Record<string, unknown> {
  const reactions = Object.entries(note.reactions);
  return {
    id: integerId(note.id),
    posted_uid: integerId(note.posted_uid),
    ...(note.item_id === null ? {} : { item_id: integerId(note.item_id) }),
    project_id: integerId(note.project_id),
    content: note.content,
    file_attachment: note.file_attachment,
    uids_to_notify: note.uids_to_notify === null ? null : note.uids_to_notify.map(integerId),
    is_deleted: flag(note.is_deleted),
    posted: v8TimestampOrNull(note.posted_at),
    reactions: reactions.length > 0 ? Object.fromEntries(reactions.map(([emoji, uids]) => [emoji, uids.map(integerId)])) : null,
  };
}

/**
 * A reminder: `mm_offset` for the relative one's minutes (v9 renamed it `minute_offset`), `due`
 * for the absolute one, the place for a location one (v8 `reminders` carried every type: v8 had
 * no `reminders_location`). `service` is the one the client gave (email, mobile, push, ...), or
 * `push` when none was given (guessed: v8's default channel).
 */
export function writeV8Reminder(reminder: ReminderRow): Record<string, unknown> {
  // The fields per type as api/v1 writes them, then v8's names and types.
  const fields = writeReminder(reminder);
  delete fields['project_id'];
  delete fields['is_urgent'];
  if ('minute_offset' in fields) {
    // v8 wrote the offset on relative reminders only (api/v1's absolute ones carry a null).
    if (fields['minute_offset'] !== null) fields['mm_offset'] = fields['minute_offset'];
    delete fields['minute_offset'];
  }
  return {
    ...fields,
    id: integerId(reminder.id),
    notify_uid: integerId(reminder.notify_uid),
    item_id: integerId(reminder.item_id),
    service: reminder.service ?? 'push',
    is_deleted: flag(reminder.is_deleted),
  };
}

/** The v8 user keys taken as v9 writes them; the rest are renamed or retyped below. */
const V8_USER_KEYS = [
  'auto_reminder', 'business_account_id', 'daily_goal', 'date_format', 'dateist_lang', 'days_off', 'email', 'features', 'full_name', 'image_id',
  'is_premium', 'karma', 'karma_trend', 'lang', 'next_week', 'premium_until', 'sort_order', 'start_day', 'start_page', 'time_format', 'tz_info',
  'weekly_goal',
] as const;

/**
 * The user as v8 wrote it (v8 docs `_user.md`): integer `id` and `inbox_project`, `join_date`,
 * `theme` (an integer). Keys only later versions have (websocket_url, feature_identifier,
 * verification_status, ...) are not written.
 */
export function writeV8User(user: UserProfile, _websocketUrl?: string, avatarOrigin?: string): Record<string, unknown> {
  const v9 = writeSyncUser(user, '', avatarOrigin);
  const fields: Record<string, unknown> = Object.fromEntries(V8_USER_KEYS.map((key) => [key, v9[key]]));
  // The avatar sizes, when there is one (v8's user object had them as v9's does).
  Object.assign(fields, avatarUrls(avatarOrigin, user.image_id ?? null));
  fields['id'] = integerId(user.id);
  fields['inbox_project'] = integerId(user.inbox_project_id);
  fields['join_date'] = v8Timestamp(new Date(user.joined_at));
  fields['theme'] = Number(user.theme_id) || 0;
  fields['is_biz_admin'] = false;
  return fields;
}

/** `user_settings` (v8 docs `_user_settings.md`): the stored booleans, nothing of v1's. */
export function writeV8UserSettings(user: UserProfile): Record<string, unknown> {
  return {
    reminder_push: user.reminder_push,
    reminder_desktop: user.reminder_desktop,
    reminder_email: user.reminder_email,
    completed_sound_desktop: user.completed_sound_desktop,
    completed_sound_mobile: user.completed_sound_mobile,
  };
}

/**
 * The v8 writers for one read: tasks need the user's labels (the read's context). Completed
 * info and view options are no v8 resource (a v8 request cannot ask for them); their writers
 * are the shared ones only to complete the interface.
 */
export function syncV8Writers(labelIds: LabelIdLookup): ObjectWriters {
  return {
    project: writeV8Project,
    item: (item) => writeV8Item(item, labelIds),
    section: writeV8Section,
    label: writeV8Label,
    filter: writeV8Filter,
    note: writeV8Note,
    reminder: writeV8Reminder,
    // A place as v9 writes it, `[name, loc_lat, loc_long]` (v8 docs `_sync.md` list `locations`, no shape: guessed the same).
    location: (place) => [place.name, place.loc_lat, place.loc_long],
    completedInfo: writeCompletedInfo,
    viewOptions: writeViewOptions,
    projectViewOptionsDefaults: writeProjectViewOptionsDefaults,
    user: writeV8User,
    userSettings: writeV8UserSettings,
    collaborator: writeLegacyCollaborator,
    collaboratorState: writeLegacyCollaboratorState,
  };
}
