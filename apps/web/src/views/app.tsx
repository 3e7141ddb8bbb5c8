import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { signInUrl } from '../api/app-session';
import { focusTaskRow, takeOpener } from '../state/focus';
import { undoNotices } from '../state/task-actions';
import { routeHash } from '../state/routes';
import { signOutNow, takeFollowedRoute } from '../state/session';
import { connection, dismiss, notices, notify, pendingCommands, route, signedIn, signInError } from '../state/store';
import { menuOpen, Nav } from './nav';
import { openQuickAdd, QuickAddDialog, quickAddOpen } from './quick-add-dialog';
import { takeSearchFocus } from '../shortcuts';
import { ArchivedProjectsPage } from './archived-projects';
import { InvitationPage } from './invitation-page';
import { NotificationsPage } from './notifications-page';
import { SettingsPage } from './settings-page';
import { TimeZoneOffer } from './time-zone-offer';
import { WorkspacePage } from './workspace-page';
import { CompletedPage, FilterPage, InboxPage, LabelPage, ProjectPage, SearchPage, TodayPage, UpcomingPage } from './pages';

/** The task view and what only it uses come as a chunk of their own, on first opening (first load stays small). */
function LazyTaskPage({ id }: { id: string }) {
  const [page, setPage] = useState<typeof import('./task-page') | null>(null);
  useEffect(() => {
    import('./task-page').then(setPage, () => notify('The task view could not be loaded. Check the connection and try again.'));
  }, []);
  if (page) return <page.TaskPage id={id} />;
  return (
    <h1 id="view-title" tabIndex={-1}>
      Loading task…
    </h1>
  );
}

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
    case 'archived':
      return <ArchivedProjectsPage />;
    case 'notifications':
      return <NotificationsPage />;
    case 'settings':
      return <SettingsPage />;
    case 'workspace':
      return <WorkspacePage id={current.id} />;
    case 'task':
      return <LazyTaskPage id={current.id} />;
    case 'invitation':
      return <InvitationPage id={current.id} answer={current.answer} />;
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
  // Closing the task view goes back to the view it was opened over: focus returns to that row.
  // A `/` press asked for the search box: it gets the focus, so the query typed next is kept.
  // A layout effect: focus moves before the new view is painted, so a key pressed as soon as the
  // view shows (`q` for its add box) is not undone by a heading focused a frame later.
  useLayoutEffect(() => {
    if (takeFollowedRoute(routeHash(route.value))) return;
    const opener = takeOpener();
    if (opener && route.value.view !== 'task' && focusTaskRow(opener)) return;
    const typed = route.value.view === 'search' ? takeSearchFocus() : undefined;
    if (typed !== undefined) {
      const box = document.getElementById('search-input') as HTMLInputElement | null;
      box?.focus();
      if (box && typed) box.value = typed;
      return;
    }
    document.getElementById('view-title')?.focus();
  }, [key]);
  if (!signedIn.value) return <SignIn />;
  const pending = pendingCommands.value.length;
  return (
    <>
      <a class="skip" href="#main">
        Skip to tasks
      </a>
      <header>
        <button type="button" class="menu-button" aria-expanded={menuOpen.value} aria-controls="app-nav" onClick={() => (menuOpen.value = !menuOpen.value)}>
          Menu
        </button>
        <span class="brand">Doable</span>
        <button type="button" id="quick-add-button" aria-expanded={quickAddOpen.value} onClick={openQuickAdd}>
          Quick add
        </button>
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
      <div class="notices" role="status" aria-live="polite" aria-label="Undo">
        {undoNotices.value.map((notice) => (
          <p key={notice.id} data-testid="undo-notice">
            {notice.message}{' '}
            <button type="button" onClick={notice.undo}>
              Undo
            </button>
          </p>
        ))}
      </div>
      <QuickAddDialog />
      <div class="layout">
        <Nav />
        <main id="main">
          <CurrentView />
        </main>
      </div>
    </>
  );
}
