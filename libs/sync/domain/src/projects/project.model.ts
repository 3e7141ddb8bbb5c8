import { COLOR_NAMES, PROJECT_FIELDS, type ProjectStatus, type ProjectVisibility } from '@doable/contracts-sync';
import { type Follows, type RowFollowsTable, selectList, timestampColumns, type TimestampField } from '../persistence/field-columns';
import { type WireTimestamps, withWireTimestamps } from '../persistence/wire-timestamps';

/** The stored values of a project's view style, stage and visibility are the project table's. */
export { PROJECT_STATUSES, PROJECT_VISIBILITIES, type ProjectStatus, type ProjectVisibility, VIEW_STYLES } from '@doable/contracts-sync';
/** A project as the domain stores it: canonical values; dialects decide the wire shape. */
export interface Project {
  id: string;
  owner_id: string;
  name: string;
  description: string;
  color: string;
  parent_id: string | null;
  child_order: number;
  is_collapsed: boolean;
  is_favorite: boolean;
  is_archived: boolean;
  is_deleted: boolean;
  inbox_project: boolean;
  view_style: string;
  /** More than one active member (v9 `shared`, api/v1 `is_shared`); derived, never stored. */
  shared: boolean;
  created_at: Date;
  updated_at: Date;
  version: string;
  /** The workspace the project belongs to (a workspace project), or null for a personal one. */
  workspace_id: string | null;
  folder_id: string | null;
  /** Workspace projects: reached only by invitation (true), or joinable by every workspace member. */
  is_invite_only: boolean;
  status: ProjectStatus;
  /** `access.visibility` of api/v1 (restricted, team, public). */
  visibility: ProjectVisibility;
  /** The role an invited or joining collaborator gets. */
  collaborator_role_default: string;
  is_link_sharing_enabled: boolean;
  /**
   * The reading user's role in the project (api/v1 workspace projects' `role`); only reads made
   * for one user fill it (PROJECT_ROLE_COLUMN), others leave it undefined.
   */
  role?: string | null;
}

/** Project has a key for each column of the project table, and every key of it is a line of it: a compile error otherwise. */
export type ProjectFollowsTheTable = Follows<RowFollowsTable<Project, typeof PROJECT_FIELDS>>;

/**
 * A project is shared while it has a second active member: an index on the project's
 * memberships (its primary key) answers it after at most two entries. `id` is the outer row's (memberships
 * have none), so the columns read the same from any statement over sync.projects, RETURNING too.
 * The sharing commands raise the project's version on every membership change, so members re-read it.
 */
const SHARED_SQL = `EXISTS (SELECT 1 FROM sync.project_members shared_member WHERE shared_member.project_id = id AND shared_member.state = 'active' OFFSET 1)`;

/** The project table's lines every read computes, as SQL over the project's row. */
export const PROJECT_COMPUTED_COLUMNS = { shared: SHARED_SQL } as const;

/** The stored columns of a project and its `shared`, from the project field table. */
export const PROJECT_COLUMNS = selectList(PROJECT_FIELDS, PROJECT_COMPUTED_COLUMNS);

/** PROJECT_COLUMNS with the timestamps as wire text (see persistence/wire-timestamps.ts), for a full sync. */
export const PROJECT_WIRE_COLUMNS = withWireTimestamps(PROJECT_COLUMNS, timestampColumns(PROJECT_FIELDS));

/** A project read with PROJECT_WIRE_COLUMNS. */
export type WireProject = WireTimestamps<Project, TimestampField<typeof PROJECT_FIELDS>>;

/** A project as the writers take it: timestamps as Dates, or already in wire text. */
export type ProjectRow = Project | WireProject;

/** The reading user's (`$1`) role in the project, for statements over sync.projects read for one user. */
export const PROJECT_ROLE_COLUMN = `(SELECT role_member.role FROM sync.project_members role_member
  WHERE role_member.project_id = id AND role_member.user_id = $1 AND role_member.state = 'active') AS role`;

/** Colour names of the v9/v1 palette (public-api-facts §3). */
export const PROJECT_COLORS = COLOR_NAMES;
