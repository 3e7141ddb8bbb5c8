/**
 * Keyboard shortcuts: `q` quick add, `/` search, `g` then `t`/`i`/`u` to go to Today, Inbox,
 * Upcoming. Ignored while typing in a field, so they never eat a letter of a task name.
 */
let searchFocusWanted = false;
/** What was typed between `/` and the search box taking the focus (the view renders a moment later). */
let typedBeforeFocus = '';

/**
 * Whether the search view was opened by `/` (asked once): then its box, not its heading, takes the
 * focus, and gets the letters typed before it could (undefined when `/` did not ask).
 */
export function takeSearchFocus(): string | undefined {
  const typed = searchFocusWanted ? typedBeforeFocus : undefined;
  searchFocusWanted = false;
  typedBeforeFocus = '';
  return typed;
}

export function installShortcuts(onQuickAdd: () => void): void {
  let leader = false;
  document.addEventListener('keydown', (event) => {
    const target = event.target as HTMLElement | null;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
    if (searchFocusWanted && event.key.length === 1) {
      // The query's first letters, typed before the search box exists: kept for it, not lost.
      typedBeforeFocus += event.key;
      event.preventDefault();
      return;
    }
    if (leader) {
      leader = false;
      const view = { t: 'today', i: 'inbox', u: 'upcoming', c: 'completed' }[event.key];
      if (view) {
        location.hash = `#/${view}`;
        event.preventDefault();
      }
      return;
    }
    if (event.key === 'g') leader = true;
    else if (event.key === 'q') {
      event.preventDefault();
      // The view's own add box when it has one (the task lands in that view), else quick add over it.
      const box = document.getElementById('add-task');
      if (box) box.focus();
      else onQuickAdd();
    } else if (event.key === '/') {
      event.preventDefault();
      // The view change would focus the new view's heading (app.tsx): this asks for the box instead.
      if (!location.hash.startsWith('#/search')) {
        searchFocusWanted = true;
        typedBeforeFocus = '';
        location.hash = '#/search/';
      } else document.getElementById('search-input')?.focus();
    }
  });
}
