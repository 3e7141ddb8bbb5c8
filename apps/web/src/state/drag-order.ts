import type { Item, SyncData } from '../api/sync-types';
import { openItems } from './task-selectors';

export type DropPlace = 'before' | 'after';

const siblingKey = (item: Item) => `${item.project_id}|${item.section_id ?? ''}|${item.parent_id ?? ''}`;

/** Whether a dragged task can be dropped beside another to reorder: siblings only (same project, section and parent). */
export function canReorder(dragged: Item, target: Item): boolean {
  return dragged.id !== target.id && siblingKey(dragged) === siblingKey(target);
}

/**
 * item_reorder's list for dropping `draggedId` before or after `targetId`: the siblings renumbered
 * 1..n in their new order (what the keyboard's move up/down sends too). Empty when the drop
 * changes nothing or the two are not siblings.
 */
export function dropOrder(data: SyncData, draggedId: string, targetId: string, place: DropPlace): { id: string; child_order: number }[] {
  const dragged = data.items.get(draggedId);
  const target = data.items.get(targetId);
  if (!dragged || !target || !canReorder(dragged, target)) return [];
  const siblings = openItems(data)
    .filter((other) => siblingKey(other) === siblingKey(dragged))
    .sort((a, b) => (a.child_order ?? 0) - (b.child_order ?? 0) || a.id.localeCompare(b.id));
  const before = siblings.map((other) => other.id);
  const rest = before.filter((id) => id !== draggedId);
  const at = rest.indexOf(targetId) + (place === 'after' ? 1 : 0);
  const after = [...rest.slice(0, at), draggedId, ...rest.slice(at)];
  if (after.every((id, index) => id === before[index])) return [];
  return after.map((id, index) => ({ id, child_order: index + 1 }));
}

/** item_move's args for dropping a task on a project in the navigation; null when it is already there. */
export function dropMoveArgs(data: SyncData, draggedId: string, projectId: string): { id: string; project_id: string } | null {
  const dragged = data.items.get(draggedId);
  if (!dragged || dragged.project_id === projectId || !data.projects.has(projectId)) return null;
  return { id: draggedId, project_id: projectId };
}
