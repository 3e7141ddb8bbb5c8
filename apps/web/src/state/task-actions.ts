import { signal } from '@preact/signals';
import type { Item } from '../api/sync-types';
import { run } from './session';
import { deletingIds } from './store';

/**
 * Writes a person may want to take back at once (complete, delete, move): each shows a short
 * notice with Undo. Completing and moving are sent at once and undone by their opposite command
 * (`item_uncomplete`, a move back); a delete cannot be undone on the server (it has no undelete),
 * so it is held back while its notice shows, the task hidden meanwhile, and sent when the notice
 * goes (or the page is left): Undo simply never sends it.
 */
export interface UndoNotice {
  readonly id: number;
  readonly message: string;
  readonly undo: () => void;
}

export const undoNotices = signal<readonly UndoNotice[]>([]);

const UNDO_MS = 8_000;
let nextId = 1;
/** What each open notice does when it goes without Undo (a held delete is sent then). */
const onExpiry = new Map<number, () => void>();

function dropNotice(id: number): void {
  undoNotices.value = undoNotices.value.filter((notice) => notice.id !== id);
  onExpiry.delete(id);
}

function offerUndo(message: string, undo: () => void, expire?: () => void): void {
  const id = nextId++;
  // One notice per kind of write is enough on screen: an older one expires (a held delete is sent).
  for (const older of undoNotices.value.slice(0, -2)) expireNotice(older.id);
  undoNotices.value = [
    ...undoNotices.value,
    {
      id,
      message,
      undo: () => {
        dropNotice(id);
        undo();
      },
    },
  ];
  if (expire) onExpiry.set(id, expire);
  setTimeout(() => expireNotice(id), UNDO_MS);
}

function expireNotice(id: number): void {
  const expire = onExpiry.get(id);
  dropNotice(id);
  expire?.();
}

/** Leaving the page sends every held delete: nothing asked for is lost. */
export function sendHeldDeletes(): void {
  for (const id of [...onExpiry.keys()]) expireNotice(id);
}

export function completeTask(item: Item): void {
  run('item_complete', { ids: [item.id] });
  offerUndo(`Completed “${item.content}”`, () => run('item_uncomplete', { ids: [item.id] }));
}

export function reopenTask(item: Pick<Item, 'id' | 'content'>): void {
  run('item_uncomplete', { ids: [item.id] });
}

export function toggleTask(item: Item): void {
  if (item.checked) reopenTask(item);
  else completeTask(item);
}

export function deleteTask(item: Item): void {
  deletingIds.value = new Set(deletingIds.value).add(item.id);
  const unhide = () => {
    const next = new Set(deletingIds.value);
    next.delete(item.id);
    deletingIds.value = next;
  };
  offerUndo(`Deleted “${item.content}”`, unhide, () => {
    run('item_delete', { ids: [item.id] });
    unhide();
  });
}

/** Moves a task to a project, a section or under another task; Undo moves it back where it was. */
export function moveTask(item: Item, to: { project_id: string } | { section_id: string } | { parent_id: string }, placeName: string): void {
  run('item_move', { id: item.id, ...to });
  const back = item.parent_id ? { parent_id: item.parent_id } : item.section_id ? { section_id: item.section_id } : { project_id: item.project_id };
  offerUndo(`Moved “${item.content}” to ${placeName}`, () => run('item_move', { id: item.id, ...back }));
}

/** A copy of a task (content, description, place, priority, labels, due) as a new task after it. */
export function duplicateTask(item: Item): string {
  const tempId = crypto.randomUUID();
  run(
    'item_add',
    {
      content: item.content,
      description: item.description ?? '',
      project_id: item.project_id,
      ...(item.section_id ? { section_id: item.section_id } : {}),
      ...(item.parent_id ? { parent_id: item.parent_id } : {}),
      priority: item.priority,
      labels: item.labels ?? [],
      ...(item.due?.string ? { due: { string: item.due.string } } : {}),
    },
    tempId,
  );
  return tempId;
}
