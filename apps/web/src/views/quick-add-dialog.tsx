import { signal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { AddTask } from './add-task';

/** Whether quick add is open over the current view (its button, or `q` on a view without an add box). */
export const quickAddOpen = signal(false);
/** What had the focus when it opened: it gets it back when quick add closes. */
let opener: HTMLElement | null = null;

export function openQuickAdd(): void {
  opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  quickAddOpen.value = true;
}

function closeQuickAdd(): void {
  quickAddOpen.value = false;
  (opener ?? document.getElementById('quick-add-button'))?.focus();
  opener = null;
}

/** Quick add from anywhere: a dialog with the same add box (the whole line goes to quick add). */
export function QuickAddDialog() {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (quickAddOpen.value) document.getElementById('quick-add-input')?.focus();
  }, [quickAddOpen.value]);
  if (!quickAddOpen.value) return null;
  return (
    <div
      class="quick-add-dialog"
      role="dialog"
      aria-labelledby="quick-add-title"
      ref={panel}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        closeQuickAdd();
      }}
    >
      <h2 id="quick-add-title">Quick add</h2>
      <AddTask inputId="quick-add-input" onAdded={closeQuickAdd} />
      <button type="button" onClick={closeQuickAdd}>
        Close
      </button>
    </div>
  );
}
