import type { ApiCollaborator, ApiComment, ApiLabel, ApiProject, ApiProjectInvitation, ApiSection, ApiSharedLabel, ApiTask } from './api-objects';
import type { ApiProjectFull, ApiProjectJoined } from './api-project-views';
import type { ApiProductivityStats, ApiUser } from './api-user-objects';
import type { ApiFolder, ApiWorkspace, ApiWorkspaceInvitation, ApiWorkspaceMembership, ApiWorkspacePlanDetails, ApiWorkspaceUser } from './api-workspace-objects';
import type { ObjectQuery, ObjectResource, ObjectsRequest } from './objects';
import type { RolePermissions } from './role-tables';

/** How many archived projects the user sees (api/v1 `projects/archived/count`). */
export type ApiCount = { readonly count: number };

/** What each project and workspace role may do (api/v1 `projects/permissions`), derived from the commands' policies. */
export type ApiRolePermissions = Readonly<RolePermissions>;

/** An id the user can see, mapped to itself (Doable never renumbered its objects). */
export type ApiIdMapping = { readonly old_id: string; readonly new_id: string };

/**
 * What sync answers each object query with: the type of `ObjectsReply.objects`' elements for a
 * query of that resource. One entry per resource of `objectQuerySchema` (ObjectOf fails to
 * compile for one without an entry); a single-object query answers one element.
 */
export interface ObjectsByResource {
  tasks: ApiTask;
  tasks_by_filter: ApiTask;
  task: ApiTask;
  projects: ApiProject;
  project: ApiProject;
  sections: ApiSection;
  section: ApiSection;
  labels: ApiLabel;
  label: ApiLabel;
  shared_labels: ApiSharedLabel;
  comments: ApiComment;
  comment: ApiComment;
  collaborators: ApiCollaborator;
  project_invitations: ApiProjectInvitation;
  user: ApiUser;
  productivity_stats: ApiProductivityStats;
  archived_projects_count: ApiCount;
  project_full: ApiProjectFull;
  workspaces: ApiWorkspace;
  workspace: ApiWorkspace;
  workspace_users: ApiWorkspaceUser;
  workspace_invitations: ApiWorkspaceInvitation;
  workspace_invitation: ApiWorkspaceInvitation;
  workspace_plan_details: ApiWorkspacePlanDetails;
  workspace_membership: ApiWorkspaceMembership;
  workspace_projects: ApiProject;
  folders: ApiFolder;
  folder: ApiFolder;
  project_joined: ApiProjectJoined;
  id_mappings: ApiIdMapping;
  role_permissions: ApiRolePermissions;
}

/** The object a query of resource R reads. */
export type ObjectOf<R extends ObjectResource> = ObjectsByResource[R];

/**
 * A query of resource R. Written as an intersection rather than `Extract<ObjectQuery, ...>` so
 * that a call taking one infers R from the query it is given.
 */
export type ObjectQueryFor<R extends ObjectResource> = ObjectQuery & { readonly resource: R };

/** A request whose query (if any) is of resource R. */
export type ObjectsRequestFor<R extends ObjectResource> = ObjectsRequest & { readonly query: ObjectQueryFor<R> | null };

/**
 * Sync's answer to an objects request whose query is of resource R (any resource when R is not
 * known, none without a query): its objects are ObjectOf<R>.
 */
export interface ObjectsReply<R extends ObjectResource = ObjectResource> {
  readonly tempIdMapping: Record<string, string>;
  /** The queried objects in the api/v1 shape; one element for single-object queries. */
  readonly objects: readonly ObjectOf<R>[];
  /** Whether a paged query has more after this page. */
  readonly hasMore: boolean;
  /** With `label_ids` on a task query: lower-cased name -> id of the personal labels the returned tasks carry. */
  readonly labelIds?: Record<string, string>;
  /** With `render`: the answer (the one object, or the list) as JSON text in that dialect; `objects` is then empty. */
  readonly body?: string;
}
