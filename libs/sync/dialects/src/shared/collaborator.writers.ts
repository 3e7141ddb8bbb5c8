import type { Collaborator, CollaboratorState } from '@doable/sync-domain';

/** A collaborator as v9 and api/v1 write it (CollaboratorSchema): string id, no avatar (image_id null). */
export function writeCollaborator(collaborator: Collaborator): Record<string, unknown> {
  return { id: collaborator.id, email: collaborator.email, full_name: collaborator.full_name, timezone: collaborator.timezone, image_id: collaborator.image_id };
}

/**
 * A collaborator state as v9 and api/v1 write it (CollaboratorStateSchema): `state` is only
 * `active` or `invited` (the SDK's enum), a departure is `is_deleted: true`. The project role is
 * written as `role` (the schema keeps unknown keys); `workspace_role` is a workspace's, which
 * Doable has not, so it is left out.
 */
export function writeCollaboratorState(state: CollaboratorState): Record<string, unknown> {
  return { project_id: state.project_id, user_id: state.user_id, state: state.state, is_deleted: state.is_deleted, role: state.role };
}
