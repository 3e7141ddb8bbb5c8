import type { EntityManager } from 'typeorm';
import type { ObjectJsonSql, Collaboration, JsonArrayText, CompletedInfo, FilterRow, FolderRow, ItemRow, LabelRow, LocationList, MembershipChanges, NoteRow, ProjectRow, ProjectViewOptionsDefaults, ReminderRow, SectionRow, ViewOptions, WorkspaceFilterRow, WorkspaceMember, WorkspaceRow } from '@doable/sync-domain';

/**
 * The canonical rows behind each resource type the sync service reads from its own tables.
 * What the read side hands a dialect: domain objects, never a dialect's shape.
 */
export interface ResourceRows {
  // Timestamps as Dates (an incremental sync's), or as wire text already (a full sync's: the
  // sources read them with the *_WIRE_COLUMNS, see persistence/wire-timestamps.ts).
  projects: ProjectRow[];
  items: ItemRow[];
  sections: SectionRow[];
  labels: LabelRow[];
  filters: FilterRow[];
  notes: NoteRow[];
  reminders: ReminderRow[];
  reminders_location: ReminderRow[];
  /** At most one list: none on an incremental sync when it did not change. */
  locations: LocationList[];
  completed_info: CompletedInfo[];
  view_options: ViewOptions[];
  project_view_options_defaults: ProjectViewOptionsDefaults[];
  /** One entry: the collaborators and their states (the resource's two response keys). */
  collaborators: Collaboration[];
  workspaces: WorkspaceRow[];
  /** Incremental syncs only (sync-interface §4.1). */
  workspace_users: WorkspaceMember[];
  folders: FolderRow[];
  workspace_filters: WorkspaceFilterRow[];
}

/**
 * A resource's response keys as JSON text written by PostgreSQL (`items` and `day_orders`;
 * `notes` and `project_notes`): an array held as its elements' texts until the answer is written.
 */
export type JsonTexts = Readonly<Record<string, string | JsonArrayText>>;

/** A resource type with a source of its own. */
export type SourcedType = keyof ResourceRows;


/**
 * One resource type of the Sync API: how its rows are read for a full sync (active data) and an
 * incremental one (everything stamped after a version, tombstones included). It knows nothing
 * of how any version writes them. Adding a resource is adding one of these to the registry
 * (resources.ts) and a writer to each dialect.
 */
export interface ResourceSource<T extends SourcedType = SourcedType> {
  readonly type: T;
  listActive(manager: EntityManager, userId: string): Promise<ResourceRows[T]>;
  /**
   * `memberships`: the projects the user joined after the version (carried whole, as a full sync
   * would) and those they left (carried as tombstones); sources of per-project data honour it.
   */
  listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges): Promise<ResourceRows[T]>;
  /**
   * listActive as the JSON text of its response keys, each object written by `object` (the
   * dialect's SQL), in the order and with the values listActive's rows are written in; undefined
   * when PostgreSQL could not write one of them (the caller then reads the rows). Sources of the
   * largest resources only (ReadNeeds.json).
   */
  listActiveJson?(manager: EntityManager, userId: string, object: ObjectJsonSql): Promise<JsonTexts | undefined>;
}

export const RESOURCE_SOURCES = Symbol('RESOURCE_SOURCES');
