/**
 * Keyboard shortcuts: `q` quick add, `/` search, `g` then `t`/`i`/`u` to go to Today, Inbox,
 * Upcoming. Ignored while typing in a field, so they never eat a letter of a task name.
 */
export function installShortcuts(): void {
  let leader = false;
  document.addEventListener('keydown', (event) => {
    const target = event.target as HTMLElement | null;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
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
      document.getElementById('add-task')?.focus();
    } else if (event.key === '/') {
      event.preventDefault();
      if (!location.hash.startsWith('#/search')) location.hash = '#/search/';
      requestAnimationFrame(() => document.getElementById('search-input')?.focus());
    }
  });
}
