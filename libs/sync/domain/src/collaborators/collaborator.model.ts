import type { ProjectRole } from '@doable/contracts-sync';

/**
 * A user who shares a project with the reader (sync-interface §2 "Collaborator"): the reader
 * too, once they are in a shared project, as the public service lists them, so every
 * collaborator state's user_id names a collaborator. image_id: their avatar's (null: none set).
 */
export interface Collaborator {
  id: string;
  email: string;
  full_name: string;
  timezone: string;
  image_id: string | null;
}

/**
 * A user's place in a shared project: an active member, or an existing user invited and not
 * yet answering. Departed members and closed invitations are tombstones (`is_deleted`) in
 * incremental reads; each generation names their state (v8 and older: `deleted`).
 */
export interface CollaboratorState {
  project_id: string;
  user_id: string;
  state: 'active' | 'invited';
  is_deleted: boolean;
  role: ProjectRole;
}

/** The `collaborators` resource of one read: both of its response keys. */
export interface Collaboration {
  collaborators: Collaborator[];
  states: CollaboratorState[];
}
