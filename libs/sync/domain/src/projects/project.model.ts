import { COLOR_NAMES } from '@doable/contracts-sync';
import { type WireTimestamps, withWireTimestamps } from '../persistence/wire-timestamps';
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

export const PROJECT_STATUSES = ['PLANNED', 'IN_PROGRESS', 'PAUSED', 'COMPLETED', 'CANCELED'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];
export const PROJECT_VISIBILITIES = ['restricted', 'team', 'public'] as const;
export type ProjectVisibility = (typeof PROJECT_VISIBILITIES)[number];

/**
 * A project is shared while it has a second active member: an index on the project's
 * memberships (its primary key) answers it after at most two entries. `id` is the outer row's (memberships
 * have none), so the columns read the same from any statement over sync.projects, RETURNING too.
 * The sharing commands raise the project's version on every membership change, so members re-read it.
 */
const SHARED_SQL = `EXISTS (SELECT 1 FROM sync.project_members shared_member WHERE shared_member.project_id = id AND shared_member.state = 'active' OFFSET 1) AS shared`;

export const PROJECT_COLUMNS = `id::text, owner_id::text, name, description, color, parent_id::text, child_order, is_collapsed,
  is_favorite, is_archived, is_deleted, inbox_project, view_style, ${SHARED_SQL}, created_at, updated_at, version::text,
  workspace_id::text, folder_id::text, is_invite_only, status, visibility, collaborator_role_default, is_link_sharing_enabled`;

/** PROJECT_COLUMNS with the timestamps as wire text (see persistence/wire-timestamps.ts), for a full sync. */
export const PROJECT_WIRE_COLUMNS = withWireTimestamps(PROJECT_COLUMNS, ['created_at', 'updated_at']);

/** A project read with PROJECT_WIRE_COLUMNS. */
export type WireProject = WireTimestamps<Project, 'created_at' | 'updated_at'>;

/** A project as the writers take it: timestamps as Dates, or already in wire text. */
export type ProjectRow = Project | WireProject;

/** The reading user's (`$1`) role in the project, for statements over sync.projects read for one user. */
export const PROJECT_ROLE_COLUMN = `(SELECT role_member.role FROM sync.project_members role_member
  WHERE role_member.project_id = id AND role_member.user_id = $1 AND role_member.state = 'active') AS role`;

/** Colour names of the v9/v1 palette (public-api-facts §3). */
export const PROJECT_COLORS = COLOR_NAMES;

export const VIEW_STYLES = ['list', 'board', 'calendar'] as const;
