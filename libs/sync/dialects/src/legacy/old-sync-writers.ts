import { type CompletedInfo, type FilterRow, type FlatPlace, flattenTaskTree, type ItemRow, type LabelRow, type NoteRow, type ProjectRow, type ProjectViewOptionsDefaults, type ReminderRow, type SectionRow, type UserProfile, type ViewOptions } from '@doable/sync-domain';
import type { ReadContext } from '@doable/sync-read';
import { avatarUrls } from '@doable/contracts-sync';
import { legacyLabelColor, legacyProjectColor } from './legacy-colors';
import { legacyDueFields } from './legacy-due';
import { labelIdLookup, labelIdsOf } from './label-ids';
import { writeLegacyCollaborator, writeLegacyCollaboratorState } from './legacy-collaborators';
import { legacyTimestamp, legacyTimestampOfText } from './legacy-timestamps';
import { flag, integerId, integerIdOrNull } from './legacy-values';
import { tzInfo } from '../shared/wire-format';
import type { ObjectWriters } from '../shared/sync-dialect';

/**
 * Sync v7's and v6's objects (v6 differs only in its user, see the v6 dialect) (fedoranimus/todoist-api `source/includes/sync/v7/*.md`): integer ids, 0/1
 * flags, `ddd DD Mon YYYY HH:MM:SS +0000` timestamps, legacy colour indexes, tasks and projects
 * placed by `item_order`/`indent` in one flat list instead of `parent_id`/`child_order`, dues as
 * `date_string`/`date_lang`/`due_date_utc`, task labels as label ids.
 *
 * A task's flat place needs its whole project: the writers are made per read, from the context
 * the dialect declared it needs (ReadNeeds: the projects' active tasks, all projects, the labels).
 */
export interface OldSyncWriterContext {
  readonly timezone: string;
  /** Flat places of tasks and of projects, by id. */
  readonly taskPlaces: ReadonlyMap<string, FlatPlace>;
  readonly projectPlaces: ReadonlyMap<string, FlatPlace>;
  /** Personal label ids by lower-cased name. */
  readonly labelIds: ReadonlyMap<string, string>;
}

/** Tasks and projects with their tree fields, as flattenTaskTree takes them. */
interface Placeable {
  readonly id: string;
  readonly project_id?: string;
  readonly parent_id: string | null;
  readonly child_order: number;
  readonly is_deleted: boolean;
  readonly in_history?: boolean;
}

/**
 * Flat places of the given rows among the known whole lists: tasks are flattened project by
 * project; a row the whole list lacks (deleted, completed into history) is placed among them
 * as its stored tree says, so it still has an `item_order` to show.
 */
function flatPlaces(rows: readonly Placeable[], whole: readonly Placeable[], groupOf: (row: Placeable) => string): Map<string, FlatPlace> {
  const groups = new Map<string, Map<string, Placeable>>();
  // A full sync's rows are its whole lists: walked once, not twice.
  for (const row of rows === whole ? whole : [...whole, ...rows]) {
    const group = groups.get(groupOf(row)) ?? new Map<string, Placeable>();
    if (!group.has(row.id)) group.set(row.id, row);
    groups.set(groupOf(row), group);
  }
  const places = new Map<string, FlatPlace>();
  for (const group of groups.values()) for (const [id, place] of flattenTaskTree([...group.values()])) places.set(id, place);
  return places;
}

/** The writer context of one read, from its rows and the context read for the dialect's needs. */
export function oldSyncWriterContext(rows: { items?: readonly ItemRow[]; projects?: readonly ProjectRow[]; labels?: readonly LabelRow[] }, context: ReadContext | undefined): OldSyncWriterContext {
  const items = rows.items ?? [];
  const projects = rows.projects ?? [];
  const labels = context?.labels ?? rows.labels ?? [];
  return {
    timezone: context?.timezone ?? 'UTC',
    taskPlaces: flatPlaces(items, (context?.projectTasks ?? []), (row) => row.project_id ?? ''),
    projectPlaces: flatPlaces(projects, context?.projects ?? [], () => ''),
    labelIds: labelIdLookup(labels),
  };
}

/** A context with nothing read: each task at its stored child_order, top level (a single object answered alone). */
export const EMPTY_OLD_SYNC_CONTEXT: OldSyncWriterContext = { timezone: 'UTC', taskPlaces: new Map(), projectPlaces: new Map(), labelIds: new Map() };

function placeOf(places: ReadonlyMap<string, FlatPlace>, row: { id: string; child_order: number }): FlatPlace {
  return places.get(row.id) ?? { item_order: row.child_order, indent: 1 };
}

function date(value: Date | string | null): string | null {
  if (value === null) return null;
  return typeof value === 'string' ? legacyTimestampOfText(value) : legacyTimestamp(value);
}

/** A v7 user: the v9 user's settings with integer ids, `inbox_project`, `tz_info`, 0/1 flags. */
export function writeOldSyncUser(user: UserProfile, _websocketUrl?: string, avatarOrigin?: string): Record<string, unknown> {
  return {
    id: integerId(user.id),
    email: user.email,
    full_name: user.full_name,
    inbox_project: integerId(user.inbox_project_id),
    tz_info: tzInfo(user.timezone),
    start_page: user.start_page,
    start_day: user.start_day,
    next_week: user.next_week,
    date_format: user.date_format,
    time_format: user.time_format,
    sort_order: user.sort_order,
    default_reminder: null,
    auto_reminder: user.auto_reminder,
    mobile_host: null,
    mobile_number: null,
    completed_count: 0,
    completed_today: 0,
    karma: user.karma,
    // The old generations wrote '-' for no trend.
    karma_trend: user.karma_trend === 'none' ? '-' : user.karma_trend,
    is_premium: false,
    premium_until: null,
    is_biz_admin: false,
    business_account_id: null,
    image_id: user.image_id ?? null,
    ...avatarUrls(avatarOrigin, user.image_id ?? null),
    theme: Number(user.theme_id) || 0,
    features: { beta: user.beta === 1 ? 1 : 0, restriction: 3, has_push_reminders: false },
    join_date: date(user.joined_at),
    daily_goal: user.daily_goal,
    weekly_goal: user.weekly_goal,
    days_off: user.days_off,
  };
}

/** The v7 (and v6) writers over one read's context. */
export function oldSyncWriters(context: OldSyncWriterContext): ObjectWriters {
  return {
    project: (project: ProjectRow) => {
      const place = placeOf(context.projectPlaces, project);
      return {
        id: integerId(project.id),
        name: project.name,
        color: legacyProjectColor(project.color),
        indent: place.indent,
        item_order: place.item_order,
        collapsed: flag(project.is_collapsed),
        shared: project.shared,
        is_deleted: flag(project.is_deleted),
        is_archived: flag(project.is_archived),
        ...(project.inbox_project ? { inbox_project: true } : {}),
      };
    },
    item: (item: ItemRow) => {
      const place = placeOf(context.taskPlaces, item);
      // Named one by one, not spread: a spread in the middle of a literal makes V8 build each of
      // a full sync's 5,000 items key by key (a third of the v7 writer's time, bench S7).
      const due = legacyDueFields(item.due, context.timezone);
      return {
        id: integerId(item.id),
        user_id: integerId(item.user_id),
        project_id: integerId(item.project_id),
        content: item.content,
        date_string: due.date_string,
        date_lang: due.date_lang,
        due_date_utc: due.due_date_utc,
        indent: place.indent,
        priority: item.priority,
        item_order: place.item_order,
        day_order: item.day_order,
        collapsed: flag(item.is_collapsed),
        children: null,
        // Shared labels (no personal label of that name) have no id to give: a v7 client could not show them.
        labels: labelIdsOf(item.labels, context.labelIds),
        assigned_by_uid: integerIdOrNull(item.assigned_by_uid ?? item.added_by_uid),
        responsible_uid: integerIdOrNull(item.responsible_uid),
        checked: flag(item.checked),
        in_history: flag(item.in_history),
        is_deleted: flag(item.is_deleted),
        is_archived: 0,
        sync_id: null,
        date_added: date(item.added_at),
      };
    },
    // v7 had no sections: never requested (the dialect's `all` leaves them out); written as v8 drafts did if asked by name.
    section: (section: SectionRow) => ({
      id: integerId(section.id),
      name: section.name,
      project_id: integerId(section.project_id),
      section_order: section.section_order,
      collapsed: flag(section.is_collapsed),
      is_deleted: flag(section.is_deleted),
      is_archived: flag(section.is_archived),
    }),
    label: (label: LabelRow) => ({ id: integerId(label.id), name: label.name, color: legacyLabelColor(label.color), item_order: label.item_order, is_deleted: flag(label.is_deleted) }),
    // Filters took the label palette (v7 docs list the same eight colours).
    filter: (filter: FilterRow) => ({
      id: integerId(filter.id),
      name: filter.name,
      query: filter.query,
      color: legacyLabelColor(filter.color),
      item_order: filter.item_order,
      is_deleted: flag(filter.is_deleted),
    }),
    note: (note: NoteRow) => ({
      id: integerId(note.id),
      posted_uid: integerId(note.posted_uid),
      project_id: integerId(note.project_id),
      item_id: integerIdOrNull(note.item_id),
      content: note.content,
      file_attachment: note.file_attachment,
      uids_to_notify: note.uids_to_notify === null ? null : note.uids_to_notify.map(integerId),
      is_deleted: flag(note.is_deleted),
      is_archived: 0,
      posted: date(note.posted_at),
    }),
    reminder: (reminder: ReminderRow) => ({
      id: integerId(reminder.id),
      notify_uid: integerId(reminder.notify_uid),
      item_id: integerId(reminder.item_id),
      // As the client gave it; without one, v7's default channel (a guess: the docs name none).
      service: reminder.service ?? 'push',
      type: reminder.type,
      ...(reminder.type === 'absolute' ? legacyDueFields(reminder.due, context.timezone) : {}),
      ...(reminder.type === 'relative' ? { mm_offset: reminder.minute_offset ?? 0 } : {}),
      ...(reminder.type === 'location'
        ? { name: reminder.name ?? '', loc_lat: reminder.loc_lat ?? '0', loc_long: reminder.loc_long ?? '0', loc_trigger: reminder.loc_trigger ?? 'on_enter', radius: reminder.radius ?? 0 }
        : {}),
      is_deleted: flag(reminder.is_deleted),
    }),
    location: (place) => [place.name, place.loc_lat, place.loc_long],
    // Resources v7 did not have; the dialect never asks for them (kept total for the interface).
    completedInfo: (row: CompletedInfo) => ({ ...row }),
    viewOptions: (row: ViewOptions) => ({ ...row }),
    projectViewOptionsDefaults: (row: ProjectViewOptionsDefaults) => ({ ...row }),
    user: writeOldSyncUser,
    userSettings: () => ({}),
    // As v8 writes them (v7 docs `_sharing.md`: integer ids, `is_deleted` a boolean).
    collaborator: writeLegacyCollaborator,
    collaboratorState: writeLegacyCollaboratorState,
  };
}
