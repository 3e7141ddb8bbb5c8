import type { WorkspacePlanType } from '@doable/contracts-plans';
import { type WorkspaceRole, workspaceRolesReading } from '@doable/contracts-sync';
import { type WireTimestamps, withWireTimestamps } from '../persistence/wire-timestamps';

/**
 * A workspace as one member reads it: the workspace's own fields, the reader's membership (role,
 * their sidebar's is_collapsed) and the counts the clients show. Canonical values; dialects
 * decide the wire shape.
 */
export interface Workspace {
  id: string;
  name: string;
  description: string;
  creator_id: string;
  is_link_sharing_enabled: boolean;
  is_guest_allowed: boolean;
  domain_name: string | null;
  domain_discovery: boolean;
  restrict_email_domains: boolean;
  invite_code: string;
  plan_type: WorkspacePlanType;
  /** The workspace plan's `{current, next}` (null until the plans service announced one: the default plan). */
  limits: WorkspaceLimits | null;
  is_deleted: boolean;
  created_at: Date;
  updated_at: Date;
  version: string;
  /** The reader's role; null in a tombstone of a workspace they left. */
  role: WorkspaceRole | null;
  is_collapsed: boolean;
  current_active_projects: number;
  admin_count: number;
  member_count: number;
  guest_count: number;
  /** The addresses of its open invitations, for an ADMIN reader; null for everyone else. */
  pending_invitations: string[] | null;
}

/** A workspace plan's `{current, next}` plan info objects (the shape of user_plan_limits). */
export interface WorkspaceLimits {
  readonly current: Record<string, unknown> | null;
  readonly next: Record<string, unknown> | null;
}

/** A member of a workspace (the `workspace_users` resource). */
export interface WorkspaceMember {
  workspace_id: string;
  user_id: string;
  email: string;
  full_name: string;
  timezone: string;
  role: WorkspaceRole;
  /** The member's avatar (null: none set). */
  image_id: string | null;
  is_deleted: boolean;
  version: string;
}

/** A folder of a workspace's projects. */
export interface Folder {
  id: string;
  workspace_id: string;
  name: string;
  child_order: number;
  default_order: number;
  is_deleted: boolean;
  created_at: Date;
  updated_at: Date;
  version: string;
}

/** A saved search shared by a workspace's members. */
export interface WorkspaceFilter {
  id: string;
  workspace_id: string;
  name: string;
  query: string;
  description: string | null;
  color: string;
  item_order: number;
  is_favorite: boolean;
  is_deleted: boolean;
  creator_id: string;
  updater_id: string;
  created_at: Date;
  updated_at: Date;
  version: string;
}

/**
 * The columns of a Workspace read for the user `$1` from `sync.workspaces w` joined with their
 * membership `m` (a LEFT JOIN for tombstones). The counts are a few index reads per workspace; a
 * user belongs to a handful of workspaces.
 */
/** The roles that see a workspace field, as an SQL list (role names are the policy's constants, never input). */
const sqlStrings = (roles: readonly WorkspaceRole[]): string => roles.map((role) => `'${role}'`).join(', ');

export const WORKSPACE_COLUMNS = `w.id::text, w.name, w.description, w.creator_id::text, w.is_link_sharing_enabled, w.is_guest_allowed,
  w.domain_name, w.domain_discovery, w.restrict_email_domains, w.invite_code, w.plan_type, w.is_deleted,
  w.created_at, w.updated_at, w.version::text,
  CASE WHEN m.state = 'active' THEN m.role END AS role, COALESCE(m.is_collapsed, false) AS is_collapsed,
  (SELECT count(*)::int FROM sync.projects p WHERE p.workspace_id = w.id AND NOT p.is_deleted AND NOT p.is_archived) AS current_active_projects,
  COALESCE(w.limits, (SELECT d.limits FROM sync.default_workspace_plan d)) AS limits,
  (SELECT count(*) FILTER (WHERE c.role = 'ADMIN')::int FROM sync.workspace_members c WHERE c.workspace_id = w.id AND c.state = 'active') AS admin_count,
  (SELECT count(*) FILTER (WHERE c.role = 'MEMBER')::int FROM sync.workspace_members c WHERE c.workspace_id = w.id AND c.state = 'active') AS member_count,
  (SELECT count(*) FILTER (WHERE c.role = 'GUEST')::int FROM sync.workspace_members c WHERE c.workspace_id = w.id AND c.state = 'active') AS guest_count,
  CASE WHEN m.state = 'active' AND m.role IN (${sqlStrings(workspaceRolesReading('pending_invitations'))}) THEN
    (SELECT COALESCE(array_agg(i.invitee_email ORDER BY i.id), '{}') FROM sync.workspace_invitations i WHERE i.workspace_id = w.id AND i.state = 'invited')
  END AS pending_invitations`;

export const FOLDER_COLUMNS = `id::text, workspace_id::text, name, child_order, default_order, is_deleted, created_at, updated_at, version::text`;

export const WORKSPACE_FILTER_COLUMNS = `id::text, workspace_id::text, name, query, description, color, item_order, is_favorite, is_deleted,
  creator_id::text, updater_id::text, created_at, updated_at, version::text`;

// The same with the timestamps as wire text (see persistence/wire-timestamps.ts), for a full sync, and the rows they read.
export const WORKSPACE_WIRE_COLUMNS = withWireTimestamps(WORKSPACE_COLUMNS, ['created_at', 'updated_at']);
export const FOLDER_WIRE_COLUMNS = withWireTimestamps(FOLDER_COLUMNS, ['created_at', 'updated_at']);
export const WORKSPACE_FILTER_WIRE_COLUMNS = withWireTimestamps(WORKSPACE_FILTER_COLUMNS, ['created_at', 'updated_at']);
export type WireWorkspace = WireTimestamps<Workspace, 'created_at' | 'updated_at'>;
export type WireFolder = WireTimestamps<Folder, 'created_at' | 'updated_at'>;
export type WireWorkspaceFilter = WireTimestamps<WorkspaceFilter, 'created_at' | 'updated_at'>;
/** As the writers take them: timestamps as Dates, or already in wire text. */
export type WorkspaceRow = Workspace | WireWorkspace;
export type FolderRow = Folder | WireFolder;
export type WorkspaceFilterRow = WorkspaceFilter | WireWorkspaceFilter;
