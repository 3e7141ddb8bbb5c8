import { effect } from '@preact/signals';
import { render } from 'preact';
import { NoSessionError, obtainToken } from './api/app-session';
import { installShortcuts } from './shortcuts';
import { setDayZone } from './state/dates';
import { knownUser, startSession } from './state/session';
import { notify, route, serverData, signedIn, signInError } from './state/store';
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
// Days are the account's (state/dates.ts): Today and Upcoming follow its zone once a sync names it.
effect(() => setDayZone(serverData.value.user?.tz_info?.timezone));
render(<App />, document.getElementById('root')!);

// The app shell is installable and served offline (public/sw.js, manifest.webmanifest).
if ('serviceWorker' in navigator) navigator.serviceWorker.register('/app/sw.js', { scope: '/app/' }).catch(() => undefined);

/**
 * Start-up: the browser session names the person (api/app-session.ts), so every tab opens on their
 * tasks. Without a connection, whoever this browser last showed opens on their kept state and
 * queue, and the first sync asks for the token once the server answers.
 */
async function boot(): Promise<void> {
  route.value = parseRoute(location.hash);
  try {
    await obtainToken();
  } catch (err) {
    if (err instanceof NoSessionError || !knownUser()) {
      if (!(err instanceof NoSessionError)) signInError.value = 'No connection to the server. Sign in when it is back.';
      signedIn.value = false;
      return;
    }
  }
  await startSession();
}

boot().catch(() => notify('Could not load your tasks. Retrying when the connection returns.'));
