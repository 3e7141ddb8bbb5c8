import { render } from 'preact';
import { completeSignIn, currentToken } from './api/oauth';
import { installShortcuts } from './shortcuts';
import { startSession } from './state/session';
import { notify, route, signedIn, signInError } from './state/store';
import { parseRoute, routeOfPath } from './state/routes';
import { sendHeldDeletes } from './state/task-actions';
import { App } from './views/app';
import { openQuickAdd } from './views/quick-add-dialog';

// `/app/task/<id>` (the link in mails and REST answers) is the task view's hash route.
const pathRoute = routeOfPath(location.pathname);
if (pathRoute) {
  history.replaceState(null, '', `/app/${location.search}${pathRoute}`);
  route.value = parseRoute(pathRoute);
}
// A delete held for its Undo notice is sent when the page is left.
window.addEventListener('pagehide', sendHeldDeletes);
window.addEventListener('hashchange', () => (route.value = parseRoute(location.hash)));
installShortcuts(openQuickAdd);
render(<App />, document.getElementById('root')!);

async function boot(): Promise<void> {
  signInError.value = await completeSignIn();
  route.value = parseRoute(location.hash);
  if (currentToken()) await startSession();
  else signedIn.value = false;
}

boot().catch(() => notify('Could not load your tasks. Retrying when the connection returns.'));
