import { DomainError } from '@doable/shared-errors';
import type { Tx } from '@doable/shared-runtime';
import { tellUsersChanged, type UserProfile, type UserProfileRepository } from '@doable/sync-domain';
import type { CommandContext } from './command-handler';

/**
 * One change by one user: the unit every write is made of (a command: a client's, or quick add's own).
 * The user's row is locked first, so the user's versions follow commit order and a client never
 * skips a change; one version stamps every row the change writes; closing it raises the
 * high-water mark of the user and of every member of the projects it touched, and tells them
 * (usersChanged, in the same transaction).
 */
export interface UserChange {
  readonly version: string;
  /** The acting user's clock and defaults, as commands see them. */
  readonly user: CommandContext['user'];
  readonly touch: (...projectIds: string[]) => void;
  /** Users outside the touched projects who must see the change (a removed collaborator). */
  readonly touchUsers: (...userIds: string[]) => void;
  /** Workspaces whose own data changed (the workspace, its members, folders, filters): every member sees it. */
  readonly touchWorkspaces: (...workspaceIds: string[]) => void;
  /** Call last, inside the same transaction. */
  readonly close: () => Promise<void>;
}

/** Locks the user's row for the rest of the transaction; USER_NOT_FOUND while the profile does not exist yet. */
export async function lockUser(tx: Tx, profiles: UserProfileRepository, userId: string): Promise<UserProfile> {
  const profile = await profiles.lock(tx.manager, userId);
  if (!profile) throw new DomainError('USER_NOT_FOUND');
  return profile;
}

/**
 * Opens a change for a user whose row this transaction has locked (see lockUser), under `taken`
 * (a version read from the sequence after that lock) or a new one.
 */
export async function openChange(tx: Tx, profiles: UserProfileRepository, profile: UserProfile, taken?: string): Promise<UserChange> {
  const version = taken ?? (await tx.manager.query<Array<{ version: string }>>(`SELECT nextval('sync.change_version')::text AS version`))[0].version;
  const touched = new Set<string>();
  const users = new Set<string>();
  const workspaces = new Set<string>();
  return {
    version,
    user: { timezone: profile.timezone, startDay: profile.start_day, nextWeek: profile.next_week, inboxProjectId: profile.inbox_project_id },
    touch: (...projectIds) => projectIds.forEach((projectId) => touched.add(projectId)),
    touchUsers: (...userIds) => userIds.forEach((userId) => users.add(userId)),
    touchWorkspaces: (...workspaceIds) => workspaceIds.forEach((workspaceId) => workspaces.add(workspaceId)),
    close: async () => {
      const told = await profiles.raiseHighWater(tx.manager, profile.id, [...touched], version, [...users], [...workspaces]);
      // One event per change, naming everyone who sees it: the push channel's cue (sync_needed).
      await tellUsersChanged(tx, told, version);
    },
  };
}
