import type { Collaborator, CollaboratorState } from '@doable/sync-domain';
import { integerId } from './legacy-values';

/** A collaborator with an integer id (v7 docs `_sharing.md`; v8 and v6 alike). */
export function writeLegacyCollaborator(collaborator: Collaborator): Record<string, unknown> {
  return { id: integerId(collaborator.id), email: collaborator.email, full_name: collaborator.full_name, timezone: collaborator.timezone, image_id: collaborator.image_id };
}

/**
 * A collaborator state with integer ids. v8 and older named a departure in `state` too
 * (invited, active, inactive, deleted: sync-interface §2) beside `is_deleted`, which the v7
 * docs show as a boolean (guessed unchanged in v8 and v6). No role: they had none.
 */
export function writeLegacyCollaboratorState(state: CollaboratorState): Record<string, unknown> {
  return { project_id: integerId(state.project_id), user_id: integerId(state.user_id), state: state.is_deleted ? 'deleted' : state.state, is_deleted: state.is_deleted };
}
