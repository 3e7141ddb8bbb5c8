import { COLOR_NAMES } from '@doable/contracts-sync';
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
}

/**
 * A project is shared while it has a second active member: an index on the project's
 * memberships (its primary key) answers it after at most two entries. `id` is the outer row's (memberships
 * have none), so the columns read the same from any statement over sync.projects, RETURNING too.
 * The sharing commands raise the project's version on every membership change, so members re-read it.
 */
const SHARED_SQL = `EXISTS (SELECT 1 FROM sync.project_members shared_member WHERE shared_member.project_id = id AND shared_member.state = 'active' OFFSET 1) AS shared`;

export const PROJECT_COLUMNS = `id::text, owner_id::text, name, description, color, parent_id::text, child_order, is_collapsed,
  is_favorite, is_archived, is_deleted, inbox_project, view_style, ${SHARED_SQL}, created_at, updated_at, version::text`;

/**
 * How a user's memberships moved after a sync token's version: projects they joined (an
 * incremental sync carries them whole, as a full sync would, though their rows are older than
 * the token) and projects they left or were removed from (it carries their tombstones).
 */
export interface MembershipChanges {
  readonly joined: readonly string[];
  readonly left: readonly string[];
}

export const NO_MEMBERSHIP_CHANGES: MembershipChanges = { joined: [], left: [] };

/** Rows of projects the user left, as the tombstones their incremental sync carries. */
export function asLeftTombstones<T extends { project_id: string; is_deleted: boolean }>(rows: T[], left: readonly string[]): T[] {
  if (left.length === 0) return rows;
  const gone = new Set(left);
  for (const row of rows) if (gone.has(row.project_id)) row.is_deleted = true;
  return rows;
}

/** Colour names of the v9/v1 palette (public-api-facts §3). */
export const PROJECT_COLORS = COLOR_NAMES;

export const VIEW_STYLES = ['list', 'board', 'calendar'] as const;
