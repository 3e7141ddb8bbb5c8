import { signal } from '@preact/signals';
import type { DragEventHandler } from 'preact';
import { useState } from 'preact/hooks';
import type { Item } from '../api/sync-types';
import { canReorder, dropMoveArgs, dropOrder, type DropPlace } from '../state/drag-order';
import { moveTask } from '../state/task-actions';
import { run } from '../state/session';
import { viewData } from '../state/store';

/**
 * Native HTML drag and drop: a task line is dragged onto another task line (reorder among
 * siblings, `item_reorder`) or onto a project in the navigation (`item_move`). The dragged id is
 * kept here because a dragover handler may not read the transfer's data, only its types. The
 * keyboard's equivalent is the editor's Move up / Move down and its Project field.
 */
const dragged = signal<string | null>(null);
/** The project whose navigation link a task is held over (it is marked `drop-target`). */
export const projectDropTarget = signal<string | null>(null);
const TASK_TYPE = 'application/x-doable-task';

interface DivProps {
  draggable: boolean;
  onDragStart: DragEventHandler<HTMLDivElement>;
  onDragEnd: DragEventHandler<HTMLDivElement>;
  onDragOver: DragEventHandler<HTMLDivElement>;
  onDragLeave: DragEventHandler<HTMLDivElement>;
  onDrop: DragEventHandler<HTMLDivElement>;
}

/** Props for a task's line, and the drop side to mark while another task hovers over it. */
export function useTaskDrag(item: Item): { props: DivProps; dropPlace: DropPlace | null } {
  const [dropPlace, setDropPlace] = useState<DropPlace | null>(null);
  const droppable = () => {
    const source = dragged.value ? viewData.value.items.get(dragged.value) : undefined;
    return source !== undefined && canReorder(source, item);
  };
  const props: DivProps = {
    draggable: true,
    onDragStart: (event) => {
      // A drag that starts in a field (selecting text) is not a task drag.
      if (event.target instanceof HTMLInputElement) return;
      dragged.value = item.id;
      event.dataTransfer?.setData(TASK_TYPE, item.id);
      event.dataTransfer?.setData('text/plain', item.content);
      if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
    },
    onDragEnd: () => {
      // A drop outside any target, or Escape, ends here: nothing may stay marked.
      dragged.value = null;
      projectDropTarget.value = null;
      setDropPlace(null);
    },
    onDragOver: (event) => {
      if (!droppable()) return;
      event.preventDefault();
      const box = event.currentTarget.getBoundingClientRect();
      setDropPlace(event.clientY < box.top + box.height / 2 ? 'before' : 'after');
    },
    onDragLeave: () => setDropPlace(null),
    onDrop: (event) => {
      const place = dropPlace;
      setDropPlace(null);
      if (!dragged.value || !place) return;
      event.preventDefault();
      const order = dropOrder(viewData.value, dragged.value, item.id, place);
      if (order.length > 0) run('item_reorder', { items: order });
    },
  };
  return { props, dropPlace };
}

interface LinkProps {
  onDragEnter: DragEventHandler<HTMLAnchorElement>;
  onDragOver: DragEventHandler<HTMLAnchorElement>;
  onDragLeave: DragEventHandler<HTMLAnchorElement>;
  onDrop: DragEventHandler<HTMLAnchorElement>;
}

/**
 * Props for a project's link in the navigation: dropping a task there moves it to that project.
 * While a task that can move there is held over it, the link is the `projectDropTarget`.
 */
export function projectDropProps(projectId: string): LinkProps {
  /** item_move's args for the held task, or null when it cannot move here. */
  const moveArgs = () => (dragged.value ? dropMoveArgs(viewData.value, dragged.value, projectId) : null);
  const over: DragEventHandler<HTMLAnchorElement> = (event) => {
    if (!moveArgs()) return;
    event.preventDefault();
    projectDropTarget.value = projectId;
  };
  return {
    onDragEnter: over,
    onDragOver: over,
    onDragLeave: (event) => {
      // Leaving for the link's own text or badge is still over the link.
      if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return;
      if (projectDropTarget.value === projectId) projectDropTarget.value = null;
    },
    onDrop: (event) => {
      projectDropTarget.value = null;
      const args = moveArgs();
      if (!args) return;
      event.preventDefault();
      const item = viewData.value.items.get(args.id);
      dragged.value = null;
      if (item) moveTask(item, { project_id: projectId }, viewData.value.projects.get(projectId)?.name ?? 'another project');
      else run('item_move', args);
    },
  };
}
