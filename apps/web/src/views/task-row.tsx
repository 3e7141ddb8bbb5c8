import { useRef, useState } from 'preact/hooks';
import type { Item } from '../api/sync-types';
import { localDay } from '../state/dates';
import { rememberOpener } from '../state/focus';
import { dateSettings, friendlyDay, friendlyDue } from '../state/friendly-dates';
import { rowKey } from '../state/row-keys';
import { viewData } from '../state/store';
import { toggleTask } from '../state/task-actions';
import type { TaskNode } from '../state/task-selectors';
import { Comments } from './comments';
import { Reminders } from './reminders';
import { TaskEditor } from './task-editor';
import { useTaskDrag } from './task-drag';

const PRIORITY_NAMES: Record<number, string> = { 4: 'Priority 1', 3: 'Priority 2', 2: 'Priority 3' };

/** The due as a person reads it (`Tomorrow 17:00`, `Mon 30 Nov`), by their date and time formats. */
function DueBadge({ item }: { item: Item }) {
  if (!item.due) return null;
  const today = localDay(new Date());
  const text = friendlyDue(item.due, today, dateSettings(viewData.value.user));
  return (
    <span class="due" data-testid="task-due" title={item.due.date}>
      {text || item.due.string}
      {/* Said as words, not as a label: getByLabel('Repeat') must find only the editor's select. */}
      {item.due.is_recurring ? (
        <>
          <span aria-hidden="true"> ↻</span>
          <span class="visually-hidden"> (recurring)</span>
        </>
      ) : null}
    </span>
  );
}

/**
 * After a completion the row leaves the list: focus goes to the next row (or the previous one
 * at the end), never to the page's body, so the keyboard carries on where it was.
 */
function focusNeighbour(row: HTMLElement | null): void {
  if (!row) return;
  const rows = [...document.querySelectorAll<HTMLElement>('[data-testid="task"]')];
  const at = rows.indexOf(row);
  const next = rows.slice(at + 1).find((other) => !row.contains(other)) ?? rows.slice(0, at).reverse().find((other) => !other.contains(row));
  const nextId = next?.dataset['taskId'];
  requestAnimationFrame(() => {
    const target = nextId ? document.querySelector<HTMLElement>(`[data-task-id="${CSS.escape(nextId)}"] [data-testid="task-complete"]`) : null;
    (target ?? document.getElementById('view-title'))?.focus();
  });
}

/** One task: `role=listitem` named by its content (what the e2e and a screen reader look for). */
export function TaskRow({ item, children }: { item: Item; children?: TaskNode[] }) {
  const [editing, setEditing] = useState(false);
  const [showComments, setShowComments] = useState(false);
  const [showReminders, setShowReminders] = useState(false);
  const [showActions, setShowActions] = useState(false);
  const row = useRef<HTMLLIElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const drag = useTaskDrag(item);
  const closeEditor = () => {
    setEditing(false);
    editButton.current?.focus();
  };
  const pending = !/^\d+$/.test(item.id) && item.id.includes('-');
  return (
    <li ref={row} aria-label={item.content} data-testid="task" data-task-id={item.id} class={`task p${item.priority}`}>
      <div class={drag.dropPlace ? `task-line drop-${drag.dropPlace}` : 'task-line'} {...drag.props}>
        <input
          type="checkbox"
          checked={item.checked === true}
          onChange={() => {
            if (!item.checked) focusNeighbour(row.current);
            toggleTask(item);
          }}
          aria-label={`Complete ${item.content}`}
          data-testid="task-complete"
        />
        <a class="content" data-testid="task-content" href={`#/task/${encodeURIComponent(item.id)}`} onClick={() => rememberOpener(item.id)} draggable={false}>
          {item.content}
        </a>
        {PRIORITY_NAMES[item.priority] ? <span class="priority">{PRIORITY_NAMES[item.priority]}</span> : null}
        <DueBadge item={item} />
        {item.deadline?.date ? <span class="due">Deadline {friendlyDay(item.deadline.date, localDay(new Date()), dateSettings(viewData.value.user))}</span> : null}
        {item.labels?.map((label) => (
          <a class="label" href={`#/label/${encodeURIComponent(label)}`} key={label}>
            @{label}
          </a>
        ))}
        {item.responsible_uid ? <span class="assignee">{viewData.value.collaborators.get(item.responsible_uid)?.full_name ?? 'Assigned'}</span> : null}
        {pending ? <span class="pending" title="Not yet saved on the server">saving…</span> : null}
        {/* On a phone's width the row's actions sit behind this one control (styles.css). */}
        <button type="button" class="row-more" onClick={() => setShowActions(!showActions)} aria-expanded={showActions} aria-label={`Actions for ${item.content}`}>
          ⋯
        </button>
        <span class={showActions ? 'row-actions open' : 'row-actions'}>
        <button type="button" ref={editButton} onClick={() => setEditing(!editing)} aria-expanded={editing} aria-label={`Edit ${item.content}`}>
          Edit
        </button>
        <button type="button" onClick={() => setShowComments(!showComments)} aria-expanded={showComments} aria-label={`Comments on ${item.content}`}>
          Comments
        </button>
        <button type="button" onClick={() => setShowReminders(!showReminders)} aria-expanded={showReminders} aria-label={`Reminders for ${item.content}`}>
          Reminders
        </button>
        </span>
      </div>
      {editing ? <TaskEditor item={item} onDone={closeEditor} /> : null}
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
          <TaskRow key={rowKey(node.item.id)} item={node.item} children={node.children} />
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
          <TaskRow key={rowKey(item.id)} item={item} />
        ))}
      </ul>
      {more}
    </>
  );
}
