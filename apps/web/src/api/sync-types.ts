import type { ApiCollaborator, ApiComment, ApiDue, ApiLabel, ApiProject, ApiProjectInvitation, ApiSection, ApiSyncUser, ApiTask, ApiTimeZoneInfo, SyncCommandArgs } from '@doable/contracts-web-wire';

/*
 * The parts of the api/v1 Sync resources this app reads, taken from the server's own object types
 * (issue #46: `@doable/contracts-web-wire`, a types-only entry, the one part of the contracts the
 * app may import). A key renamed or retyped on the server fails the app's type check. The app
 * keeps only the keys it reads (the server sends more; they are kept as sent), most of them
 * optional, since the pending overlay builds objects from a command's arguments before the server
 * has answered. What the wire types do not describe yet (filters, reminders, workspaces, folders,
 * live notifications, the sync envelope) is still written here.
 */

/** A wire type's keys writable and its arrays mutable: the app builds such objects (the overlay). */
type Mutable<T> = { -readonly [K in keyof T]: T[K] extends ReadonlyArray<infer U> ? U[] : T[K] };
/** The wire type's `Req` keys as it has them, its `Opt` keys optional. */
type Wire<T, Req extends keyof T, Opt extends keyof T> = Pick<Mutable<T>, Req> & Partial<Pick<Mutable<T>, Opt>>;

export type Due = Wire<ApiDue, 'date', 'timezone' | 'string' | 'is_recurring'> & { lang?: ApiDue['lang'] | undefined };

export type Item = Wire<ApiTask, 'id' | 'project_id' | 'content' | 'priority', 'section_id' | 'parent_id' | 'description' | 'labels' | 'checked' | 'is_deleted' | 'child_order' | 'responsible_uid'> & {
  due?: Due | null;
  /** As the editor sets it (a date, the language optional); the server answers `{date, lang}`. */
  deadline?: { date: string; lang?: string } | null;
  duration?: { amount: number; unit: 'minute' | 'day' } | null;
  added_at?: string;
};

export type Project = Wire<ApiProject, 'id' | 'name', 'color' | 'parent_id' | 'child_order' | 'inbox_project' | 'is_deleted' | 'is_archived' | 'folder_id' | 'is_favorite'> & {
  /** Present only on a workspace's project (api/v1 never writes it, not even null, on a personal one). */
  workspace_id?: string;
};

export type Section = Wire<ApiSection, 'id' | 'name' | 'project_id', 'section_order' | 'is_deleted' | 'is_archived'>;

export type Label = Wire<ApiLabel, 'id' | 'name', 'color' | 'item_order' | 'is_deleted'>;

export interface Filter {
  id: string;
  name: string;
  query: string;
  item_order?: number;
  is_deleted?: boolean;
}

export type Note = Wire<ApiComment, 'id' | 'content', 'item_id' | 'project_id' | 'posted_uid' | 'posted_at' | 'is_deleted'> & {
  file_attachment?: { file_name?: string; file_url?: string } | null;
};

/** The wire's collaborator has `name`; the Sync API's list names it `full_name`, which the app reads. */
export type Collaborator = Wire<ApiCollaborator, 'id', 'email'> & { full_name?: string; is_deleted?: boolean };

/** A project's open invitation as `GET /api/v1/projects/{id}/invitations` answers it (every address, one with no account too). */
export type ProjectInvitation = ApiProjectInvitation;

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

export type SyncUser = Wire<ApiSyncUser, 'id', 'full_name' | 'email' | 'start_day' | 'time_format' | 'date_format' | 'inbox_project_id' | 'websocket_url'> & {
  /** Older generations' zone; api/v1 names it in `tz_info`. */
  timezone?: string;
  tz_info?: Pick<ApiTimeZoneInfo, 'timezone'> & { [extra: string]: unknown };
  [extra: string]: unknown;
};

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

/**
 * A quick add kept in the command queue (state/quick-add-command.ts): the line as typed, sent to
 * the server's quick add when a connection allows. Not a Sync API command: the queue sends it by itself.
 */
export type QuickAddArgs = {
  /** The line, with the view's `#Project` or `@label` appended as the add box does. */
  readonly text: string;
  /** The view's date for a line that names none (Today's `today`). */
  readonly due_if_none?: string;
  /** What the overlay shows until the server answers: item_add's terms (content as typed, the view's project or label). */
  readonly preview: SyncCommandArgs['item_add'];
  /**
   * The task the server made, once quick add has answered (kept in the queue until the sync after
   * it settles the command): the overlay then shows the synced task only, and a resend after a
   * reload asks the sync alone, not quick add again.
   */
  readonly answered_id?: string;
};

/** What the app queues, by type: the Sync API commands with the contracts' argument types, and its own quick add. */
export type CommandArgs = SyncCommandArgs & { readonly quick_add: QuickAddArgs };
export type CommandType = keyof CommandArgs;
/** A command's arguments while they are being put together (its keys writable). */
export type ArgsDraft<T extends CommandType> = { -readonly [K in keyof CommandArgs[T]]: CommandArgs[T][K] };

/**
 * A write as the queue keeps it: the uuid makes a resend safe (the server answers it once). Its
 * arguments are typed where it is made (session.ts `run`, by CommandArgs); kept, they are a record
 * read key by key, as a command an older build left in IndexedDB must be read too.
 */
export interface Command {
  type: CommandType;
  uuid: string;
  temp_id?: string;
  args: Readonly<Record<string, unknown>>;
}
