import { render } from 'preact';
import { completeSignIn, currentToken } from './api/oauth';
import { installShortcuts } from './shortcuts';
import { startSession } from './state/session';
import { notify, route, signedIn, signInError } from './state/store';
import { parseRoute } from './state/routes';
import { App } from './views/app';

window.addEventListener('hashchange', () => (route.value = parseRoute(location.hash)));
installShortcuts();
render(<App />, document.getElementById('root')!);

async function boot(): Promise<void> {
  signInError.value = await completeSignIn();
  route.value = parseRoute(location.hash);
  if (currentToken()) await startSession();
  else signedIn.value = false;
}

boot().catch(() => notify('Could not load your tasks. Retrying when the connection returns.'));
