import type { Item } from '../api/sync-types';

/**
 * Where focus goes when a view or a dialog closes: back to what opened it. The task view
 * remembers the row it was opened from; closing it goes back in history (the view it was opened
 * over) and the app then focuses that row's link rather than the view's heading.
 */
let openerTask: string | null = null;
/** Whether the task view was opened from within the app (so Back returns to that view). */
let openedHere = false;

export function rememberOpener(taskId: string): void {
  openerTask = taskId;
  openedHere = true;
}

/** The row to focus after a view change, asked once. */
export function takeOpener(): string | null {
  const id = openerTask;
  openerTask = null;
  return id;
}

/** Focuses a task row's link by its task id; false when no such row is on screen. */
export function focusTaskRow(taskId: string): boolean {
  const link = document.querySelector<HTMLElement>(`[data-task-id="${CSS.escape(taskId)}"] .content`);
  link?.focus();
  return link !== null;
}

/** Leaves the task view: back where it was opened from, else to the task's project. */
export function closeTaskView(item?: Pick<Item, 'id' | 'project_id'>): void {
  if (openedHere) {
    openedHere = false;
    if (item) openerTask = item.id;
    history.back();
    return;
  }
  location.hash = item ? `#/project/${encodeURIComponent(item.project_id)}` : '#/today';
}
