import { useState } from 'preact/hooks';
import type { Item } from '../api/sync-types';
import { dueDay } from '../state/dates';
import { toggleItem } from '../state/session';
import { viewData } from '../state/store';
import type { TaskNode } from '../state/task-selectors';
import { Comments } from './comments';
import { Reminders } from './reminders';
import { TaskEditor } from './task-editor';
import { useTaskDrag } from './task-drag';

const PRIORITY_NAMES: Record<number, string> = { 4: 'Priority 1', 3: 'Priority 2', 2: 'Priority 3' };

function DueBadge({ item }: { item: Item }) {
  if (!item.due) return null;
  const day = dueDay(item.due);
  return (
    <span class="due" data-testid="task-due">
      {day ?? item.due.string}
      {item.due.is_recurring ? ' ↻' : ''}
    </span>
  );
}

/** One task: `role=listitem` named by its content (what the e2e and a screen reader look for). */
export function TaskRow({ item, children }: { item: Item; children?: TaskNode[] }) {
  const [editing, setEditing] = useState(false);
  const [showComments, setShowComments] = useState(false);
  const [showReminders, setShowReminders] = useState(false);
  const drag = useTaskDrag(item);
  const pending = !/^\d+$/.test(item.id) && item.id.includes('-');
  return (
    <li aria-label={item.content} data-testid="task" data-task-id={item.id} class={`task p${item.priority}`}>
      <div class={drag.dropPlace ? `task-line drop-${drag.dropPlace}` : 'task-line'} {...drag.props}>
        <input type="checkbox" checked={item.checked === true} onChange={() => toggleItem(item)} aria-label={`Complete ${item.content}`} data-testid="task-complete" />
        <span class="content" data-testid="task-content">
          {item.content}
        </span>
        {PRIORITY_NAMES[item.priority] ? <span class="priority">{PRIORITY_NAMES[item.priority]}</span> : null}
        <DueBadge item={item} />
        {item.deadline?.date ? <span class="due">Deadline {item.deadline.date}</span> : null}
        {item.labels?.map((label) => (
          <a class="label" href={`#/label/${encodeURIComponent(label)}`} key={label}>
            @{label}
          </a>
        ))}
        {item.responsible_uid ? <span class="assignee">{viewData.value.collaborators.get(item.responsible_uid)?.full_name ?? 'Assigned'}</span> : null}
        {pending ? <span class="pending" title="Not yet saved on the server">saving…</span> : null}
        <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing} aria-label={`Edit ${item.content}`}>
          Edit
        </button>
        <button type="button" onClick={() => setShowComments(!showComments)} aria-expanded={showComments} aria-label={`Comments on ${item.content}`}>
          Comments
        </button>
        <button type="button" onClick={() => setShowReminders(!showReminders)} aria-expanded={showReminders} aria-label={`Reminders for ${item.content}`}>
          Reminders
        </button>
      </div>
      {editing ? <TaskEditor item={item} onDone={() => setEditing(false)} /> : null}
      {showComments ? <Comments item={item} /> : null}
      {showReminders ? <Reminders item={item} /> : null}
      {children && children.length > 0 ? <TaskTree nodes={children} label={`Subtasks of ${item.content}`} /> : null}
    </li>
  );
}

/**
 * Rows drawn at first in one list: a big account's overdue list can hold thousands, and drawing
 * them all would hold the first paint well past a second. The rest come on request.
 */
const FIRST_ROWS = 100;

function useShown(total: number) {
  const [limit, setLimit] = useState(FIRST_ROWS);
  const more =
    total > limit ? (
      <button type="button" class="more" onClick={() => setLimit(total)}>
        Show {total - limit} more
      </button>
    ) : null;
  return { limit, more };
}

export function TaskTree({ nodes, label }: { nodes: TaskNode[]; label: string }) {
  const { limit, more } = useShown(nodes.length);
  return (
    <>
      <ul class="tasks" aria-label={label}>
        {nodes.slice(0, limit).map((node) => (
          <TaskRow key={node.item.id} item={node.item} children={node.children} />
        ))}
      </ul>
      {more}
    </>
  );
}

export function TaskList({ items, label, empty }: { items: Item[]; label: string; empty?: string }) {
  const { limit, more } = useShown(items.length);
  if (items.length === 0) return <p class="empty">{empty ?? 'No tasks.'}</p>;
  return (
    <>
      <ul class="tasks" aria-label={label}>
        {items.slice(0, limit).map((item) => (
          <TaskRow key={item.id} item={item} />
        ))}
      </ul>
      {more}
    </>
  );
}
