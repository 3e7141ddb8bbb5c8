/**
 * Membership: who may see what, and how that moved since a sync token. Projects and workspaces
 * are two scopes of the one model (an active row in `sync.project_members` or
 * `sync.workspace_members` makes a user see the scope and every row in it), so every read and
 * write of a project- or workspace-scoped table reaches it through the definitions here.
 */

import { VISIBLE_PROJECTS, VISIBLE_WORKSPACES } from '@doable/contracts-sync';

// Which projects and workspaces a user (`$1`) reads is the read policy's rule (contracts-sync
// read-policy.ts); the domain's repositories reach it through here.
export { inLiveVisibleProjects, inVisibleProjects, LIVE_VISIBLE_PROJECTS, VISIBLE_PROJECTS, VISIBLE_WORKSPACES } from '@doable/contracts-sync';

/** How a user's workspace memberships moved after a sync token's version (see MembershipChanges). */
export interface WorkspaceMembershipChanges {
  readonly workspacesJoined: readonly string[];
  readonly workspacesLeft: readonly string[];
}

/**
 * How a user's memberships moved after a sync token's version: projects they joined (an
 * incremental sync carries them whole, as a full sync would, though their rows are older than
 * the token) and projects they left or were removed from (it carries their tombstones); and the
 * same of workspaces (their folders, workspace filters and members).
 */
export interface MembershipChanges extends WorkspaceMembershipChanges {
  readonly joined: readonly string[];
  readonly left: readonly string[];
}

export const NO_MEMBERSHIP_CHANGES: MembershipChanges = { joined: [], left: [], workspacesJoined: [], workspacesLeft: [] };

/** One scope's part of the changes: its visible set, and the scopes joined and left since the token. */
interface ScopeChanges {
  readonly visible: string;
  readonly joined: readonly string[];
  readonly left: readonly string[];
}

const projectScope = (memberships: MembershipChanges): ScopeChanges => ({ visible: VISIBLE_PROJECTS, joined: memberships.joined, left: memberships.left });
const workspaceScope = (memberships: WorkspaceMembershipChanges): ScopeChanges => ({
  visible: VISIBLE_WORKSPACES,
  joined: memberships.workspacesJoined,
  left: memberships.workspacesLeft,
});
const moved = (scope: ScopeChanges): boolean => scope.joined.length > 0 || scope.left.length > 0;

/**
 * Which rows of a scoped table an incremental read carries, as a condition on `$1` (the user)
 * and `$2` (the token's version): those stamped after the version in the user's scopes. When
 * memberships moved (then with `$3` joined and `$4` left, see changedSinceParams), also every
 * row of a scope joined since that a full sync would carry (`active`), and every row of a scope
 * left since that is alive or changed (its tombstone). Without membership changes it is the one
 * indexed condition it always was.
 */
function scopeChangedSince(scope: ScopeChanges, active: string, column: string): string {
  const changed = `(${column} IN (${scope.visible}) AND version > $2)`;
  if (!moved(scope)) return changed;
  return `(${changed}
       OR (${column} = ANY($3::bigint[]) AND ${active})
       OR (${column} = ANY($4::bigint[]) AND (NOT is_deleted OR version > $2)))`;
}

function scopeParams(userId: string, version: string, scope: ScopeChanges): unknown[] {
  return moved(scope) ? [userId, version, scope.joined, scope.left] : [userId, version];
}

/** Rows of scopes the user left, marked as the tombstones their incremental sync carries. */
function markLeft<T extends { is_deleted: boolean }>(rows: T[], left: readonly string[], scopeOf: (row: T) => string): T[] {
  if (left.length === 0) return rows;
  const gone = new Set(left);
  for (const row of rows) if (gone.has(scopeOf(row))) row.is_deleted = true;
  return rows;
}

/** A project-scoped table's incremental condition (scopeChangedSince over the user's projects). */
export function changedSinceCondition(memberships: MembershipChanges, active: string, projectColumn = 'project_id'): string {
  return scopeChangedSince(projectScope(memberships), active, projectColumn);
}

/** The parameters changedSinceCondition reads. */
export function changedSinceParams(userId: string, version: string, memberships: MembershipChanges): unknown[] {
  return scopeParams(userId, version, projectScope(memberships));
}

/** Rows of projects the user left, as the tombstones their incremental sync carries. */
export function asLeftTombstones<T extends { project_id: string; is_deleted: boolean }>(rows: T[], left: readonly string[]): T[] {
  return markLeft(rows, left, (row) => row.project_id);
}

/** A workspace-scoped table's incremental condition (scopeChangedSince over the user's workspaces). */
export function workspaceChangedSinceCondition(memberships: WorkspaceMembershipChanges, active: string, workspaceColumn = 'workspace_id'): string {
  return scopeChangedSince(workspaceScope(memberships), active, workspaceColumn);
}

/** The parameters workspaceChangedSinceCondition reads. */
export function workspaceChangedSinceParams(userId: string, version: string, memberships: WorkspaceMembershipChanges): unknown[] {
  return scopeParams(userId, version, workspaceScope(memberships));
}

/** Rows of workspaces the user left, marked as the tombstones their incremental sync carries. */
export function asLeftWorkspaceTombstones<T extends { workspace_id: string; is_deleted: boolean }>(rows: T[], left: readonly string[]): T[] {
  return markLeft(rows, left, (row) => row.workspace_id);
}
