/** Every view, addressed by the hash so a reload or a shared link opens the same one. */
export type Route =
  | { view: 'inbox' }
  | { view: 'today' }
  | { view: 'upcoming' }
  | { view: 'project'; id: string }
  | { view: 'label'; name: string }
  | { view: 'filter'; id: string }
  | { view: 'search'; query: string }
  | { view: 'completed' }
  | { view: 'archived' }
  | { view: 'notifications' }
  | { view: 'settings' }
  | { view: 'workspace'; id: string }
  | { view: 'task'; id: string }
  /** A project invitation to answer (the mail's Accept and Decline lead here, and ask). */
  | { view: 'invitation'; id: string; answer?: InvitationAnswer };

export type InvitationAnswer = 'accept' | 'decline';

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#\/?/, '');
  const slash = path.indexOf('/');
  const view = slash < 0 ? path : path.slice(0, slash);
  let arg = '';
  try {
    arg = slash < 0 ? '' : decodeURIComponent(path.slice(slash + 1));
  } catch {
    // A hand-typed malformed escape: treat as no argument.
  }
  switch (view) {
    case 'inbox':
    case 'upcoming':
    case 'completed':
    case 'archived':
    case 'notifications':
    case 'settings':
      return { view };
    case 'project':
      return arg ? { view, id: arg } : { view: 'inbox' };
    case 'label':
      return arg ? { view, name: arg } : { view: 'inbox' };
    case 'filter':
      return arg ? { view, id: arg } : { view: 'inbox' };
    case 'search':
      return { view, query: arg };
    case 'workspace':
    case 'task':
      return arg ? { view, id: arg } : { view: 'inbox' };
    case 'invitation': {
      const [id, answer] = arg.split('/');
      if (!id) return { view: 'notifications' };
      return answer === 'accept' || answer === 'decline' ? { view, id, answer } : { view, id };
    }
    default:
      return { view: 'today' };
  }
}

export function routeHash(route: Route): string {
  switch (route.view) {
    case 'project':
      return `#/project/${encodeURIComponent(route.id)}`;
    case 'label':
      return `#/label/${encodeURIComponent(route.name)}`;
    case 'filter':
      return `#/filter/${encodeURIComponent(route.id)}`;
    case 'search':
      return `#/search/${encodeURIComponent(route.query)}`;
    case 'workspace':
      return `#/workspace/${encodeURIComponent(route.id)}`;
    case 'task':
      return `#/task/${encodeURIComponent(route.id)}`;
    case 'invitation':
      return `#/invitation/${encodeURIComponent(route.id)}${route.answer ? `/${route.answer}` : ''}`;
    case 'inbox':
    case 'today':
    case 'upcoming':
    case 'completed':
    case 'archived':
    case 'notifications':
    case 'settings':
      return `#/${route.view}`;
  }
}

/**
 * The same view under the real id, when the route names something created here by its temp id
 * and the server has now mapped it (a new project is opened at once, before its id is known);
 * null when the route names nothing mapped.
 */
export function routeAfterMapping(route: Route, mapping: Readonly<Record<string, string>>): Route | null {
  if (route.view !== 'project' && route.view !== 'filter' && route.view !== 'workspace' && route.view !== 'task') return null;
  const real = mapping[route.id];
  return real ? { ...route, id: real } : null;
}

/**
 * The hash route a path-form address names: `/app/task/<id>` is the link the server writes in
 * mails and REST answers (`url`), `/app/invitation/<id>/<answer>` an invitation mail's, and the
 * gateway answers every app path with the app. Null for any other path.
 */
export function routeOfPath(pathname: string): string | null {
  const task = /^\/app\/task\/([^/]+)\/?$/.exec(pathname);
  if (task) return `#/task/${task[1]}`;
  // An invitation mail's Accept and Decline (the notifications service's collaborationMailActions).
  const invitation = /^\/app\/invitation\/([0-9]+)\/(accept|decline)\/?$/.exec(pathname);
  return invitation ? `#/invitation/${invitation[1]}/${invitation[2]}` : null;
}
