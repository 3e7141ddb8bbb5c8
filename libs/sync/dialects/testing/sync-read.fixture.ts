import type { Item, Project, Reminder, UserProfile } from '@doable/sync-domain';
import type { ResourceType, SyncRead } from '@doable/sync-read';

/** An account's read, as the reader hands it to a dialect: the input of every dialect's golden tests. */
export const GENERATED_AT = new Date('2024-05-06T07:08:09.123Z');

export function project(overrides: Partial<Project> = {}): Project {
  return {
    id: '2203306141',
    owner_id: '42',
    name: 'Errands',
    description: 'things to do',
    color: 'berry_red',
    parent_id: null,
    child_order: 1,
    is_collapsed: true,
    is_favorite: false,
    is_archived: false,
    is_deleted: false,
    inbox_project: false,
    view_style: 'list',
    shared: false,
    created_at: new Date('2024-01-02T03:04:05.678Z'),
    updated_at: new Date('2024-02-03T04:05:06.789Z'),
    version: '17',
    workspace_id: null,
    folder_id: null,
    is_invite_only: false,
    status: 'IN_PROGRESS',
    visibility: 'team',
    collaborator_role_default: 'READ_WRITE',
    is_link_sharing_enabled: true,
    ...overrides,
  };
}

/** A relative reminder, 30 minutes before its task's due. */
export function reminder(overrides: Partial<Reminder> = {}): Reminder {
  return {
    id: '4100000001',
    project_id: '2200000001',
    item_id: '6000000001',
    notify_uid: '42',
    type: 'relative',
    due: null,
    minute_offset: 30,
    is_urgent: false,
    name: null,
    loc_lat: null,
    loc_long: null,
    loc_trigger: null,
    radius: null,
    service: null,
    is_deleted: false,
    added_at: new Date('2024-01-02T03:04:05.678Z'),
    updated_at: new Date('2024-01-02T03:04:05.678Z'),
    version: '9',
    ...overrides,
  };
}

export const inbox = project({ id: '2203306140', name: 'Inbox', inbox_project: true, is_collapsed: false, child_order: 0 });
export const errands = project();

/** A top-level task of the inbox, as the domain stores it. */
export function item(id: string, overrides: Partial<Item> = {}): Item {
  return {
    id,
    user_id: '42',
    project_id: inbox.id,
    section_id: null,
    parent_id: null,
    content: `Task ${id}`,
    description: '',
    priority: 1,
    due: null,
    deadline: null,
    duration: null,
    labels: [],
    child_order: 1,
    day_order: -1,
    is_collapsed: false,
    checked: false,
    in_history: false,
    is_deleted: false,
    added_by_uid: '42',
    assigned_by_uid: null,
    responsible_uid: null,
    added_at: new Date('2024-01-02T03:04:05.000Z'),
    completed_at: null,
    updated_at: GENERATED_AT,
    version: '17',
    ...overrides,
  };
}

export const user: UserProfile = {
  id: '42',
  email: 'ada@example.com',
  full_name: 'Ada Lovelace',
  timezone: 'Europe/Berlin',
  lang: 'en',
  inbox_project_id: inbox.id,
  start_page: 'inbox',
  start_day: 1,
  next_week: 1,
  weekend_start_day: 6,
  time_format: 0,
  date_format: 0,
  sort_order: 0,
  auto_reminder: 30,
  daily_goal: 5,
  weekly_goal: 25,
  days_off: [6, 7],
  theme_id: '11',
  vacation_mode: false,
  karma_disabled: true,
  karma: 0,
  karma_trend: 'none',
  karma_last_change: 0,
  beta: 0,
  reminder_push: true,
  reminder_desktop: false,
  reminder_email: true,
  completed_sound_desktop: true,
  completed_sound_mobile: true,
  reset_recurring_subtasks: false,
  notification_settings: { note_added: { email: true } },
  has_password: true,
  joined_at: new Date('2023-12-24T10:00:00.000Z'),
  version: '3',
  settings_version: '2',
  high_water: '17',
  notification_mark: '0',
  image_id: null,
};

/** A read result as the reader builds it, with `projects` as the requested rows. */
export function read(types: ResourceType[], overrides: Partial<SyncRead> & { projects?: Project[] } = {}): SyncRead {
  const { projects = [inbox, errands], ...rest } = overrides;
  const rows = types.includes('projects') ? { projects } : {};
  return { fullSync: true, syncToken: 'token-1', version: '17', generatedAt: GENERATED_AT, types: new Set(types), user, userSettings: user, rows, ...rest };
}


export const renderedProjects = (body: Record<string, unknown>) => body['projects'] as Array<Record<string, unknown>>;
