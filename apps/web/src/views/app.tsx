import { useEffect } from 'preact/hooks';
import { signInUrl } from '../api/app-session';
import { routeHash } from '../state/routes';
import { signOutNow, takeFollowedRoute } from '../state/session';
import { connection, dismiss, notices, pendingCommands, route, signedIn, signInError } from '../state/store';
import { Nav } from './nav';
import { NotificationsPage } from './notifications-page';
import { SettingsPage } from './settings-page';
import { TimeZoneOffer } from './time-zone-offer';
import { WorkspacePage } from './workspace-page';
import { CompletedPage, FilterPage, InboxPage, LabelPage, ProjectPage, SearchPage, TodayPage, UpcomingPage } from './pages';

function CurrentView() {
  const current = route.value;
  switch (current.view) {
    case 'inbox':
      return <InboxPage />;
    case 'today':
      return <TodayPage />;
    case 'upcoming':
      return <UpcomingPage />;
    case 'project':
      return <ProjectPage id={current.id} />;
    case 'label':
      return <LabelPage name={current.name} />;
    case 'filter':
      return <FilterPage id={current.id} />;
    case 'search':
      return <SearchPage query={current.query} />;
    case 'completed':
      return <CompletedPage />;
    case 'notifications':
      return <NotificationsPage />;
    case 'settings':
      return <SettingsPage />;
    case 'workspace':
      return <WorkspacePage id={current.id} />;
  }
}

/**
 * Shown only to a browser without a session (issue #47): a signed-in person's every tab opens on
 * their tasks. Both pages come back here, to the view that was asked for, signed in.
 */
function SignIn() {
  return (
    <main id="main" class="sign-in">
      <h1>Doable</h1>
      {signInError.value ? <p role="alert">{signInError.value}</p> : null}
      <button type="button" onClick={() => location.assign(signInUrl('login', location.hash))}>
        Sign in
      </button>{' '}
      <a class="button" href={signInUrl('signup', location.hash)}>
        Create an account
      </a>
    </main>
  );
}

export function App() {
  // Moving focus to the new view's heading tells screen readers the view changed; a new
  // project's temp id turning into its real one is no change of view.
  const key = JSON.stringify(route.value);
  useEffect(() => {
    if (!takeFollowedRoute(routeHash(route.value))) document.getElementById('view-title')?.focus();
  }, [key]);
  if (!signedIn.value) return <SignIn />;
  const pending = pendingCommands.value.length;
  return (
    <>
      <a class="skip" href="#main">
        Skip to tasks
      </a>
      <header>
        <span class="brand">Doable</span>
        <span class="status" data-testid="connection" role="status">
          {connection.value === 'offline' ? `Offline${pending > 0 ? `, ${pending} change${pending === 1 ? '' : 's'} waiting` : ''}` : connection.value === 'loading' ? 'Loading…' : pending > 0 ? 'Saving…' : ''}
        </span>
        <button type="button" onClick={() => void signOutNow()}>
          Sign out
        </button>
      </header>
      <div class="notices" role="log" aria-live="polite" aria-label="Notifications">
        {notices.value.map((message) => (
          <p key={message}>
            {message}{' '}
            <button type="button" onClick={() => dismiss(message)} aria-label={`Dismiss: ${message}`}>
              Dismiss
            </button>
          </p>
        ))}
      </div>
      <TimeZoneOffer />
      <div class="layout">
        <Nav />
        <main id="main">
          <CurrentView />
        </main>
      </div>
    </>
  );
}
