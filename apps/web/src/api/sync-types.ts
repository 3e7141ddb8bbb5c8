/** The parts of the api/v1 Sync resources this app reads (the server sends more; we keep it). */
export interface Due {
  date: string;
  timezone?: string | null;
  string?: string;
  lang?: string;
  is_recurring?: boolean;
}

export interface Item {
  id: string;
  project_id: string;
  section_id?: string | null;
  parent_id?: string | null;
  content: string;
  description?: string;
  priority: number;
  due?: Due | null;
  deadline?: { date: string; lang?: string } | null;
  duration?: { amount: number; unit: 'minute' | 'day' } | null;
  labels?: string[];
  checked?: boolean;
  is_deleted?: boolean;
  child_order?: number;
  responsible_uid?: string | null;
  added_at?: string;
}

export interface Project {
  id: string;
  name: string;
  color?: string;
  parent_id?: string | null;
  child_order?: number;
  inbox_project?: boolean;
  shared?: boolean;
  is_deleted?: boolean;
  is_archived?: boolean;
  is_favorite?: boolean;
  /** Present only on a workspace's project (api/v1 never writes it, not even null, on a personal one). */
  workspace_id?: string;
  folder_id?: string | null;
}

export interface Section {
  id: string;
  name: string;
  project_id: string;
  section_order?: number;
  is_deleted?: boolean;
  is_archived?: boolean;
}

export interface Label {
  id: string;
  name: string;
  color?: string;
  item_order?: number;
  is_deleted?: boolean;
}

export interface Filter {
  id: string;
  name: string;
  query: string;
  item_order?: number;
  is_deleted?: boolean;
}

export interface Note {
  id: string;
  item_id?: string | null;
  project_id?: string | null;
  content: string;
  posted_uid?: string;
  posted_at?: string;
  file_attachment?: { file_name?: string; file_url?: string } | null;
  is_deleted?: boolean;
}

export interface Collaborator {
  id: string;
  email?: string;
  full_name?: string;
  is_deleted?: boolean;
}

/** Who is on which shared project; keyed by project and user (it has no id of its own). */
export interface CollaboratorState {
  project_id: string;
  user_id: string;
  state: string;
  role?: string;
  is_deleted?: boolean;
}

export interface LiveNotification {
  id: string;
  notification_type: string;
  created_at?: string;
  is_unread?: boolean;
  is_deleted?: boolean;
  [extra: string]: unknown;
}

export interface SyncUser {
  id: string;
  full_name?: string;
  email?: string;
  timezone?: string;
  /** api/v1 names the zone here (`timezone` is older generations'). */
  tz_info?: { timezone: string; [extra: string]: unknown };
  /** 1 Monday … 7 Sunday. */
  start_day?: number;
  /** 0 = 24h, 1 = 12h. */
  time_format?: number;
  /** 0 = DD-MM-YYYY, 1 = MM-DD-YYYY. */
  date_format?: number;
  inbox_project_id?: string;
  websocket_url?: string;
  [extra: string]: unknown;
}

export interface Workspace {
  id: string;
  name: string;
  description?: string | null;
  role?: string;
  is_collapsed?: boolean;
  current_member_count?: number;
  is_deleted?: boolean;
}

/** A membership: keyed by workspace and user (no id of its own); only incremental syncs carry them. */
export interface WorkspaceUser {
  workspace_id: string;
  user_id: string;
  full_name?: string;
  user_email?: string;
  role?: string;
  is_deleted?: boolean;
}

/** A workspace's folder of projects (projects name it by folder_id). */
export interface Folder {
  id: string;
  name: string;
  workspace_id: string;
  child_order?: number;
  is_deleted?: boolean;
}

/**
 * A reminder: relative (minute_offset before the due), absolute (its own due), or location (a
 * place: coordinates as strings, radius in metres; they come in the `reminders_location` list).
 */
export interface Reminder {
  id: string;
  item_id: string;
  type: 'relative' | 'absolute' | 'location';
  minute_offset?: number | null;
  due?: Due | null;
  name?: string;
  loc_lat?: string;
  loc_long?: string;
  loc_trigger?: 'on_enter' | 'on_leave';
  radius?: number;
  notify_uid?: string;
  is_deleted?: boolean;
}

/** One kind of resource the app keeps, by id; every one of them carries `is_deleted` on change. */
export const KEYED_RESOURCES = ['items', 'projects', 'sections', 'labels', 'filters', 'notes', 'collaborators', 'collaborator_states', 'live_notifications', 'workspaces', 'workspace_users', 'folders', 'reminders'] as const;
export type KeyedResource = (typeof KEYED_RESOURCES)[number];

export interface ResourceShapes {
  items: Item;
  projects: Project;
  sections: Section;
  labels: Label;
  filters: Filter;
  notes: Note;
  collaborators: Collaborator;
  collaborator_states: CollaboratorState;
  live_notifications: LiveNotification;
  workspaces: Workspace;
  workspace_users: WorkspaceUser;
  folders: Folder;
  reminders: Reminder;
}

/** The `settings_notifications` resource: per notification type, whether it is mailed and pushed. */
export type NotificationSettings = Readonly<Record<string, { readonly notify_email: boolean; readonly notify_push: boolean }>>;

/** What the app holds of the server's state: one map per resource, the user, the notification settings, the next token. */
export type SyncData = { readonly [K in KeyedResource]: ReadonlyMap<string, ResourceShapes[K]> } & {
  readonly user: SyncUser | null;
  /** Null until a sync has brought them (every full sync does, and an incremental one after a change). */
  readonly notificationSettings: NotificationSettings | null;
  readonly syncToken: string;
};

export interface SyncError {
  error_code: number;
  error_tag?: string;
  error: string;
  http_code?: number;
}

/** A command's answer: ok, its refusal, or (a command over several ids) each id's outcome. */
export type SyncStatus = 'ok' | SyncError | { readonly [id: string]: 'ok' | SyncError };

/** A Sync API answer as far as this app reads it. */
export interface SyncReply {
  sync_token?: string;
  full_sync?: boolean;
  user?: SyncUser;
  items?: Item[];
  projects?: Project[];
  sections?: Section[];
  labels?: Label[];
  filters?: Filter[];
  notes?: Note[];
  project_notes?: Note[];
  collaborators?: Collaborator[];
  collaborator_states?: CollaboratorState[];
  live_notifications?: LiveNotification[];
  workspaces?: Workspace[];
  workspace_users?: WorkspaceUser[];
  folders?: Folder[];
  reminders?: Reminder[];
  reminders_location?: Reminder[];
  settings_notifications?: NotificationSettings;
  temp_id_mapping?: Record<string, string>;
  sync_status?: Record<string, SyncStatus>;
}

/** A write, as the Sync API takes it: the uuid makes a resend safe (the server answers it once). */
export interface Command {
  type: string;
  uuid: string;
  temp_id?: string;
  args: Record<string, unknown>;
}
