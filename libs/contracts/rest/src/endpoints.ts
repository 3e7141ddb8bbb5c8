/**
 * The REST surfaces as data: each endpoint once, with the surfaces that serve it. The gateway
 * builds its routes from this list and the rest service dispatches on the same operation names,
 * so a path exists in both places or in neither.
 */
export const REST_SURFACES = ['rest-v1', 'rest-v2', 'rest-api-v1'] as const;
export type RestSurface = (typeof REST_SURFACES)[number];

export const REST_PREFIXES: Readonly<Record<RestSurface, string>> = { 'rest-v1': '/rest/v1', 'rest-v2': '/rest/v2', 'rest-api-v1': '/api/v1' };

export interface RestEndpoint {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Relative to the surface's prefix; `:name` segments are params. */
  readonly path: string;
  readonly operation: string;
  readonly surfaces: readonly RestSurface[];
}

const ALL: readonly RestSurface[] = REST_SURFACES;
const V2_AND_API: readonly RestSurface[] = ['rest-v2', 'rest-api-v1'];
const API: readonly RestSurface[] = ['rest-api-v1'];

/** Fixed paths come before `:id` paths that would also match them (`/tasks/filter`, `/labels/shared`). */
export const REST_ENDPOINTS: readonly RestEndpoint[] = [
  { method: 'GET', path: '/tasks/filter', operation: 'tasks.filter', surfaces: API },
  { method: 'GET', path: '/tasks', operation: 'tasks.list', surfaces: ALL },
  { method: 'POST', path: '/tasks', operation: 'tasks.create', surfaces: ALL },
  { method: 'GET', path: '/tasks/:id', operation: 'tasks.get', surfaces: ALL },
  { method: 'POST', path: '/tasks/:id', operation: 'tasks.update', surfaces: ALL },
  { method: 'DELETE', path: '/tasks/:id', operation: 'tasks.delete', surfaces: ALL },
  { method: 'POST', path: '/tasks/:id/close', operation: 'tasks.close', surfaces: ALL },
  { method: 'POST', path: '/tasks/:id/reopen', operation: 'tasks.reopen', surfaces: ALL },
  { method: 'POST', path: '/tasks/:id/move', operation: 'tasks.move', surfaces: API },

  { method: 'GET', path: '/projects/archived/count', operation: 'projects.archived_count', surfaces: API },
  { method: 'GET', path: '/projects/archived', operation: 'projects.archived', surfaces: API },
  { method: 'GET', path: '/projects/permissions', operation: 'projects.permissions', surfaces: API },
  { method: 'GET', path: '/projects/search', operation: 'projects.search', surfaces: API },
  { method: 'POST', path: '/projects/move_to_workspace', operation: 'projects.move_to_workspace', surfaces: API },
  { method: 'POST', path: '/projects/move_to_personal', operation: 'projects.move_to_personal', surfaces: API },
  { method: 'GET', path: '/projects', operation: 'projects.list', surfaces: ALL },
  { method: 'POST', path: '/projects', operation: 'projects.create', surfaces: ALL },
  { method: 'GET', path: '/projects/:id', operation: 'projects.get', surfaces: ALL },
  { method: 'POST', path: '/projects/:id', operation: 'projects.update', surfaces: ALL },
  { method: 'DELETE', path: '/projects/:id', operation: 'projects.delete', surfaces: ALL },
  { method: 'POST', path: '/projects/:id/archive', operation: 'projects.archive', surfaces: API },
  { method: 'POST', path: '/projects/:id/unarchive', operation: 'projects.unarchive', surfaces: API },
  { method: 'GET', path: '/projects/:id/collaborators', operation: 'projects.collaborators', surfaces: ALL },
  { method: 'GET', path: '/projects/:id/full', operation: 'projects.full', surfaces: API },
  { method: 'POST', path: '/projects/:id/join', operation: 'projects.join', surfaces: API },

  { method: 'GET', path: '/sections/search', operation: 'sections.search', surfaces: API },
  { method: 'GET', path: '/sections/archived', operation: 'sections.archived', surfaces: API },
  { method: 'GET', path: '/sections', operation: 'sections.list', surfaces: ALL },
  { method: 'POST', path: '/sections', operation: 'sections.create', surfaces: ALL },
  { method: 'GET', path: '/sections/:id', operation: 'sections.get', surfaces: ALL },
  { method: 'POST', path: '/sections/:id', operation: 'sections.update', surfaces: ALL },
  { method: 'DELETE', path: '/sections/:id', operation: 'sections.delete', surfaces: ALL },
  { method: 'POST', path: '/sections/:id/archive', operation: 'sections.archive', surfaces: API },
  { method: 'POST', path: '/sections/:id/unarchive', operation: 'sections.unarchive', surfaces: API },

  { method: 'GET', path: '/labels/shared', operation: 'labels.shared', surfaces: V2_AND_API },
  { method: 'POST', path: '/labels/shared/rename', operation: 'labels.shared.rename', surfaces: V2_AND_API },
  { method: 'POST', path: '/labels/shared/remove', operation: 'labels.shared.remove', surfaces: V2_AND_API },
  { method: 'GET', path: '/labels/search', operation: 'labels.search', surfaces: API },
  { method: 'GET', path: '/labels', operation: 'labels.list', surfaces: ALL },
  { method: 'POST', path: '/labels', operation: 'labels.create', surfaces: ALL },
  { method: 'GET', path: '/labels/:id', operation: 'labels.get', surfaces: ALL },
  { method: 'POST', path: '/labels/:id', operation: 'labels.update', surfaces: ALL },
  { method: 'DELETE', path: '/labels/:id', operation: 'labels.delete', surfaces: ALL },

  { method: 'GET', path: '/comments', operation: 'comments.list', surfaces: ALL },
  { method: 'POST', path: '/comments', operation: 'comments.create', surfaces: ALL },
  { method: 'GET', path: '/comments/:id', operation: 'comments.get', surfaces: ALL },
  { method: 'POST', path: '/comments/:id', operation: 'comments.update', surfaces: ALL },
  { method: 'DELETE', path: '/comments/:id', operation: 'comments.delete', surfaces: ALL },

  { method: 'GET', path: '/workspaces/users', operation: 'workspaces.users', surfaces: API },
  { method: 'GET', path: '/workspaces/invitations', operation: 'workspaces.invitations', surfaces: API },
  { method: 'GET', path: '/workspaces/invitations/all', operation: 'workspaces.invitations.all', surfaces: API },
  { method: 'POST', path: '/workspaces/invitations/delete', operation: 'workspaces.invitations.delete', surfaces: API },
  { method: 'PUT', path: '/workspaces/invitations/:invite_code/accept', operation: 'workspaces.invitations.accept', surfaces: API },
  { method: 'PUT', path: '/workspaces/invitations/:invite_code/reject', operation: 'workspaces.invitations.reject', surfaces: API },
  { method: 'POST', path: '/workspaces/join', operation: 'workspaces.join', surfaces: API },
  { method: 'GET', path: '/workspaces/plan_details', operation: 'workspaces.plan_details', surfaces: API },
  { method: 'GET', path: '/workspaces', operation: 'workspaces.list', surfaces: API },
  { method: 'POST', path: '/workspaces', operation: 'workspaces.create', surfaces: API },
  { method: 'GET', path: '/workspaces/:id', operation: 'workspaces.get', surfaces: API },
  { method: 'POST', path: '/workspaces/:id', operation: 'workspaces.update', surfaces: API },
  { method: 'DELETE', path: '/workspaces/:id', operation: 'workspaces.delete', surfaces: API },
  { method: 'POST', path: '/workspaces/:id/users/invite', operation: 'workspaces.users.invite', surfaces: API },
  { method: 'POST', path: '/workspaces/:id/users/:user_id', operation: 'workspaces.users.update', surfaces: API },
  { method: 'DELETE', path: '/workspaces/:id/users/:user_id', operation: 'workspaces.users.remove', surfaces: API },
  { method: 'GET', path: '/workspaces/:id/projects/active', operation: 'workspaces.projects.active', surfaces: API },
  { method: 'GET', path: '/workspaces/:id/projects/archived', operation: 'workspaces.projects.archived', surfaces: API },

  { method: 'GET', path: '/folders', operation: 'folders.list', surfaces: API },
  { method: 'POST', path: '/folders', operation: 'folders.create', surfaces: API },
  { method: 'GET', path: '/folders/:id', operation: 'folders.get', surfaces: API },
  { method: 'POST', path: '/folders/:id', operation: 'folders.update', surfaces: API },
  { method: 'DELETE', path: '/folders/:id', operation: 'folders.delete', surfaces: API },

  { method: 'GET', path: '/user', operation: 'user.get', surfaces: API },
  { method: 'GET', path: '/tasks/completed/stats', operation: 'user.productivity_stats', surfaces: API },
  { method: 'GET', path: '/id_mappings/:object/:ids', operation: 'id_mappings.get', surfaces: API },
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
