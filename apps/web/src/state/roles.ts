import type { SyncData } from '../api/sync-types';

/** A person's role on a project, as the server names it: CREATOR, ADMIN, READ_WRITE, READ_ONLY (or one it adds later). */
export type ProjectRole = string;

/**
 * The signed-in person's role on a project: their collaborator state's role on a shared one; on a
 * project nobody else is on, they made it (CREATOR). The server is the judge; this only keeps the
 * app from offering what it would refuse.
 */
export function myRole(data: SyncData, projectId: string): ProjectRole {
  const me = data.user?.id;
  let shared = false;
  for (const state of data.collaborator_states.values()) {
    if (state.project_id !== projectId || state.is_deleted) continue;
    shared = true;
    if (state.user_id === me && state.state === 'active') return state.role ?? 'READ_WRITE';
  }
  return shared ? 'READ_WRITE' : 'CREATOR';
}

/** What a role may do to the project itself and to what is in it. */
export function projectRights(role: ProjectRole) {
  const manager = role === 'CREATOR' || role === 'ADMIN';
  return {
    /** Delete the whole project: its creator only. */
    delete: role === 'CREATOR',
    /** Rename, colour, archive, add sub-projects. */
    manage: manager,
    /** Sections and tasks. */
    edit: manager || role === 'READ_WRITE',
    /** Invite people, and cancel invitations. */
    share: manager || role === 'READ_WRITE',
    /** Leave a project someone else made. */
    leave: role !== 'CREATOR',
  };
}
