import type { Scope } from '@doable/contracts-common';
import { DATA_DELETE, DATA_READ_WRITE, type ObjectQueryResource, PROJECT_DELETE, TASK_ADD } from '@doable/contracts-sync';

/**
 * The REST surfaces as data: each endpoint once, with the surfaces that serve it and what it
 * needs of a token. The gateway builds its routes from this list and the rest service dispatches
 * on the same operation names, so a path exists in both places or in neither.
 */
export const REST_SURFACES = ['rest-v1', 'rest-v2', 'rest-api-v1'] as const;
export type RestSurface = (typeof REST_SURFACES)[number];

export const REST_PREFIXES: Readonly<Record<RestSurface, string>> = { 'rest-v1': '/rest/v1', 'rest-v2': '/rest/v2', 'rest-api-v1': '/api/v1' };

/**
 * What an endpoint does, in the policies' own terms, so what a token needs for it is theirs: a
 * read of an object-query resource (the read policy says which scopes read it), or a write that
 * runs a sync command, with the scopes that command's CommandPolicy declares (its handler is the
 * rule; sync's rest-endpoint-access.spec.ts holds each line to it, and rest's to what the
 * operation really reads or runs). The OpenAPI document's `security` is derived from it.
 */
export type EndpointAccess = { readonly reads: ObjectQueryResource } | { readonly runs: string; readonly scopes: readonly Scope[] };

const reads = (resource: ObjectQueryResource): EndpointAccess => ({ reads: resource });
const runs = (command: string, scopes: readonly Scope[] = DATA_READ_WRITE): EndpointAccess => ({ runs: command, scopes });

export interface RestEndpoint {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Relative to the surface's prefix; `:name` segments are params. */
  readonly path: string;
  readonly operation: string;
  readonly surfaces: readonly RestSurface[];
  readonly access: EndpointAccess;
}

const ALL: readonly RestSurface[] = REST_SURFACES;
const V2_AND_API: readonly RestSurface[] = ['rest-v2', 'rest-api-v1'];
const API: readonly RestSurface[] = ['rest-api-v1'];

/** Fixed paths come before `:id` paths that would also match them (`/tasks/filter`, `/labels/shared`). */
export const REST_ENDPOINTS: readonly RestEndpoint[] = [
  { method: 'GET', path: '/tasks/filter', operation: 'tasks.filter', surfaces: API, access: reads('tasks_by_filter') },
  { method: 'GET', path: '/tasks', operation: 'tasks.list', surfaces: ALL, access: reads('tasks') },
  { method: 'POST', path: '/tasks', operation: 'tasks.create', surfaces: ALL, access: runs('item_add', TASK_ADD) },
  { method: 'GET', path: '/tasks/:id', operation: 'tasks.get', surfaces: ALL, access: reads('task') },
  { method: 'POST', path: '/tasks/:id', operation: 'tasks.update', surfaces: ALL, access: runs('item_update') },
  { method: 'DELETE', path: '/tasks/:id', operation: 'tasks.delete', surfaces: ALL, access: runs('item_delete', DATA_DELETE) },
  { method: 'POST', path: '/tasks/:id/close', operation: 'tasks.close', surfaces: ALL, access: runs('item_close') },
  { method: 'POST', path: '/tasks/:id/reopen', operation: 'tasks.reopen', surfaces: ALL, access: runs('item_uncomplete') },
  { method: 'POST', path: '/tasks/:id/move', operation: 'tasks.move', surfaces: API, access: runs('item_move') },

  { method: 'GET', path: '/projects/archived/count', operation: 'projects.archived_count', surfaces: API, access: reads('archived_projects_count') },
  { method: 'GET', path: '/projects/archived', operation: 'projects.archived', surfaces: API, access: reads('projects') },
  { method: 'GET', path: '/projects/permissions', operation: 'projects.permissions', surfaces: API, access: reads('role_permissions') },
  { method: 'GET', path: '/projects/search', operation: 'projects.search', surfaces: API, access: reads('projects') },
  { method: 'POST', path: '/projects/move_to_workspace', operation: 'projects.move_to_workspace', surfaces: API, access: runs('project_move_to_workspace') },
  { method: 'POST', path: '/projects/move_to_personal', operation: 'projects.move_to_personal', surfaces: API, access: runs('project_move_to_personal') },
  { method: 'GET', path: '/projects', operation: 'projects.list', surfaces: ALL, access: reads('projects') },
  { method: 'POST', path: '/projects', operation: 'projects.create', surfaces: ALL, access: runs('project_add') },
  { method: 'GET', path: '/projects/:id', operation: 'projects.get', surfaces: ALL, access: reads('project') },
  { method: 'POST', path: '/projects/:id', operation: 'projects.update', surfaces: ALL, access: runs('project_update') },
  { method: 'DELETE', path: '/projects/:id', operation: 'projects.delete', surfaces: ALL, access: runs('project_delete', PROJECT_DELETE) },
  { method: 'POST', path: '/projects/:id/archive', operation: 'projects.archive', surfaces: API, access: runs('project_archive') },
  { method: 'POST', path: '/projects/:id/unarchive', operation: 'projects.unarchive', surfaces: API, access: runs('project_unarchive') },
  { method: 'GET', path: '/projects/:id/collaborators', operation: 'projects.collaborators', surfaces: ALL, access: reads('collaborators') },
  // Doable's own (no Todoist client calls it): the project's open invitations, to those who may invite there.
  { method: 'GET', path: '/projects/:id/invitations', operation: 'projects.invitations', surfaces: API, access: reads('project_invitations') },
  { method: 'GET', path: '/projects/:id/full', operation: 'projects.full', surfaces: API, access: reads('project_full') },
  { method: 'POST', path: '/projects/:id/join', operation: 'projects.join', surfaces: API, access: runs('project_join') },

  { method: 'GET', path: '/sections/search', operation: 'sections.search', surfaces: API, access: reads('sections') },
  { method: 'GET', path: '/sections/archived', operation: 'sections.archived', surfaces: API, access: reads('sections') },
  { method: 'GET', path: '/sections', operation: 'sections.list', surfaces: ALL, access: reads('sections') },
  { method: 'POST', path: '/sections', operation: 'sections.create', surfaces: ALL, access: runs('section_add') },
  { method: 'GET', path: '/sections/:id', operation: 'sections.get', surfaces: ALL, access: reads('section') },
  { method: 'POST', path: '/sections/:id', operation: 'sections.update', surfaces: ALL, access: runs('section_update') },
  { method: 'DELETE', path: '/sections/:id', operation: 'sections.delete', surfaces: ALL, access: runs('section_delete') },
  { method: 'POST', path: '/sections/:id/archive', operation: 'sections.archive', surfaces: API, access: runs('section_archive') },
  { method: 'POST', path: '/sections/:id/unarchive', operation: 'sections.unarchive', surfaces: API, access: runs('section_unarchive') },

  { method: 'GET', path: '/labels/shared', operation: 'labels.shared', surfaces: V2_AND_API, access: reads('shared_labels') },
  { method: 'POST', path: '/labels/shared/rename', operation: 'labels.shared.rename', surfaces: V2_AND_API, access: runs('label_rename') },
  { method: 'POST', path: '/labels/shared/remove', operation: 'labels.shared.remove', surfaces: V2_AND_API, access: runs('label_delete_occurrences', DATA_DELETE) },
  { method: 'GET', path: '/labels/search', operation: 'labels.search', surfaces: API, access: reads('labels') },
  { method: 'GET', path: '/labels', operation: 'labels.list', surfaces: ALL, access: reads('labels') },
  { method: 'POST', path: '/labels', operation: 'labels.create', surfaces: ALL, access: runs('label_add') },
  { method: 'GET', path: '/labels/:id', operation: 'labels.get', surfaces: ALL, access: reads('label') },
  { method: 'POST', path: '/labels/:id', operation: 'labels.update', surfaces: ALL, access: runs('label_update') },
  { method: 'DELETE', path: '/labels/:id', operation: 'labels.delete', surfaces: ALL, access: runs('label_delete', DATA_DELETE) },

  { method: 'GET', path: '/comments', operation: 'comments.list', surfaces: ALL, access: reads('comments') },
  { method: 'POST', path: '/comments', operation: 'comments.create', surfaces: ALL, access: runs('note_add') },
  { method: 'GET', path: '/comments/:id', operation: 'comments.get', surfaces: ALL, access: reads('comment') },
  { method: 'POST', path: '/comments/:id', operation: 'comments.update', surfaces: ALL, access: runs('note_update') },
  { method: 'DELETE', path: '/comments/:id', operation: 'comments.delete', surfaces: ALL, access: runs('note_delete') },

  { method: 'GET', path: '/workspaces/users', operation: 'workspaces.users', surfaces: API, access: reads('workspace_users') },
  { method: 'GET', path: '/workspaces/invitations', operation: 'workspaces.invitations', surfaces: API, access: reads('workspace_invitations') },
  { method: 'GET', path: '/workspaces/invitations/all', operation: 'workspaces.invitations.all', surfaces: API, access: reads('workspace_invitations') },
  { method: 'POST', path: '/workspaces/invitations/delete', operation: 'workspaces.invitations.delete', surfaces: API, access: runs('workspace_delete_invitation') },
  { method: 'PUT', path: '/workspaces/invitations/:invite_code/accept', operation: 'workspaces.invitations.accept', surfaces: API, access: runs('biz_accept_invitation') },
  { method: 'PUT', path: '/workspaces/invitations/:invite_code/reject', operation: 'workspaces.invitations.reject', surfaces: API, access: runs('biz_reject_invitation') },
  { method: 'POST', path: '/workspaces/join', operation: 'workspaces.join', surfaces: API, access: runs('workspace_join') },
  { method: 'GET', path: '/workspaces/plan_details', operation: 'workspaces.plan_details', surfaces: API, access: reads('workspace_plan_details') },
  { method: 'GET', path: '/workspaces', operation: 'workspaces.list', surfaces: API, access: reads('workspaces') },
  { method: 'POST', path: '/workspaces', operation: 'workspaces.create', surfaces: API, access: runs('workspace_add') },
  { method: 'GET', path: '/workspaces/:id', operation: 'workspaces.get', surfaces: API, access: reads('workspace') },
  { method: 'POST', path: '/workspaces/:id', operation: 'workspaces.update', surfaces: API, access: runs('workspace_update') },
  { method: 'DELETE', path: '/workspaces/:id', operation: 'workspaces.delete', surfaces: API, access: runs('workspace_delete', PROJECT_DELETE) },
  { method: 'POST', path: '/workspaces/:id/users/invite', operation: 'workspaces.users.invite', surfaces: API, access: runs('workspace_invite') },
  { method: 'POST', path: '/workspaces/:id/users/:user_id', operation: 'workspaces.users.update', surfaces: API, access: runs('workspace_update_user') },
  { method: 'DELETE', path: '/workspaces/:id/users/:user_id', operation: 'workspaces.users.remove', surfaces: API, access: runs('workspace_delete_user') },
  { method: 'GET', path: '/workspaces/:id/projects/active', operation: 'workspaces.projects.active', surfaces: API, access: reads('workspace_projects') },
  { method: 'GET', path: '/workspaces/:id/projects/archived', operation: 'workspaces.projects.archived', surfaces: API, access: reads('workspace_projects') },

  { method: 'GET', path: '/folders', operation: 'folders.list', surfaces: API, access: reads('folders') },
  { method: 'POST', path: '/folders', operation: 'folders.create', surfaces: API, access: runs('folder_add') },
  { method: 'GET', path: '/folders/:id', operation: 'folders.get', surfaces: API, access: reads('folder') },
  { method: 'POST', path: '/folders/:id', operation: 'folders.update', surfaces: API, access: runs('folder_update') },
  { method: 'DELETE', path: '/folders/:id', operation: 'folders.delete', surfaces: API, access: runs('folder_delete', DATA_DELETE) },

  { method: 'GET', path: '/user', operation: 'user.get', surfaces: API, access: reads('user') },
  { method: 'GET', path: '/tasks/completed/stats', operation: 'user.productivity_stats', surfaces: API, access: reads('productivity_stats') },
  { method: 'GET', path: '/id_mappings/:object/:ids', operation: 'id_mappings.get', surfaces: API, access: reads('id_mappings') },
];

/** The endpoint a request on a surface reached, or undefined. Paths are matched segment by segment. */
export function findRestEndpoint(surface: RestSurface, method: string, path: string): { endpoint: RestEndpoint; params: Record<string, string> } | undefined {
  const prefix = REST_PREFIXES[surface];
  if (!path.startsWith(prefix)) return undefined;
  const segments = path.slice(prefix.length).replace(/\/$/, '').split('/');
  for (const endpoint of REST_ENDPOINTS) {
    if (endpoint.method !== method || !endpoint.surfaces.includes(surface)) continue;
    const template = endpoint.path.split('/');
    if (template.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = template.every((part, index) => {
      const segment = segments[index] ?? '';
      if (!part.startsWith(':')) return part === segment;
      params[part.slice(1)] = segment;
      return segment.length > 0;
    });
    if (matches) return { endpoint, params };
  }
  return undefined;
}
