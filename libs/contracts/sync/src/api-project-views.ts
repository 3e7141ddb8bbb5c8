import type { ApiComment, ApiProject, ApiSection, ApiTask } from './api-objects';
import type { ApiFolder } from './api-workspace-objects';
import type { WorkspaceRole } from './workspace-roles';

/**
 * A project read with what it holds, as api/v1 `projects/{id}/full` and `projects/{id}/join`
 * answer it (sdk 17 getFullProject, joinProject). Type aliases, as in api-objects.ts.
 */

/** A project's person (the sync collaborators shape). */
export type ApiProjectPerson = {
  readonly id: string;
  readonly email: string;
  readonly full_name: string;
  readonly timezone: string;
  readonly image_id: string | null;
};

/** A person's membership of a project (the sync collaborator_states shape); `workspace_role` only in a workspace project. */
export type ApiCollaboratorState = {
  readonly project_id: string;
  readonly user_id: string;
  readonly state: string;
  readonly is_deleted: boolean;
  readonly role: string;
  readonly workspace_role?: WorkspaceRole;
};

/** `projects/{id}/full`: the project, its active tasks and sections, its people and its own comments. */
export type ApiProjectFull = {
  readonly project: ApiProject;
  /** Comments in the project: on the project itself and on its tasks. */
  readonly comments_count: number;
  readonly tasks: readonly ApiTask[];
  readonly sections: readonly ApiSection[];
  readonly collaborators: readonly ApiProjectPerson[];
  readonly notes: readonly ApiComment[];
};

/**
 * `projects/{id}/join`: the project with what it holds (tasks also as `items`, comments also as
 * `notes`, as the Sync API names them), its people and their states, its folder and sub-projects.
 */
export type ApiProjectJoined = {
  readonly project: ApiProject;
  readonly tasks: readonly ApiTask[];
  readonly items: readonly ApiTask[];
  readonly sections: readonly ApiSection[];
  readonly comments: readonly ApiComment[];
  readonly notes: readonly ApiComment[];
  readonly collaborators: readonly ApiProjectPerson[];
  readonly collaborator_states: readonly ApiCollaboratorState[];
  readonly folder: ApiFolder | null;
  readonly subprojects: readonly ApiProject[];
};
