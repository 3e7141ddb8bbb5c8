import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/http';
import type { Item } from '../api/sync-types';
import { dateSettings, friendlyMoment } from '../state/friendly-dates';
import { addItem, updateItem } from '../state/session';
import { viewData } from '../state/store';
import { moveTask } from '../state/task-actions';
import { subtaskTree } from '../state/task-selectors';
import { TaskTree } from './task-row';

/** The task's labels: every personal label to tick, and a new one by name (the server makes it). */
export function TaskLabels({ item }: { item: Item }) {
  const [name, setName] = useState('');
  const current = item.labels ?? [];
  const known = [...viewData.value.labels.values()].map((label) => label.name);
  const all = [...new Set([...known, ...current])].sort((a, b) => a.localeCompare(b));
  const set = (labels: string[]) => updateItem(item.id, { labels });
  return (
    <fieldset class="task-labels">
      <legend>Labels</legend>
      {all.map((label) => (
        <label key={label} class="check">
          <input type="checkbox" checked={current.includes(label)} onChange={(event) => set(event.currentTarget.checked ? [...current, label] : current.filter((other) => other !== label))} /> @{label}
        </label>
      ))}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = name.trim().replace(/^@/, '');
          if (trimmed && !current.includes(trimmed)) set([...current, trimmed]);
          setName('');
        }}
      >
        <label for="task-new-label">New label</label>
        <input id="task-new-label" value={name} onInput={(event) => setName(event.currentTarget.value)} autocomplete="off" />
        <button type="submit">Add label</button>
      </form>
    </fieldset>
  );
}

/** Project and section: a change is a move (item_move), with Undo. */
export function TaskPlace({ item }: { item: Item }) {
  const data = viewData.value;
  const projects = [...data.projects.values()].filter((project) => !project.is_archived).sort((a, b) => (a.child_order ?? 0) - (b.child_order ?? 0));
  const sections = [...data.sections.values()].filter((section) => section.project_id === item.project_id && !section.is_archived).sort((a, b) => (a.section_order ?? 0) - (b.section_order ?? 0));
  return (
    <div class="task-fields">
      <span class="field">
        <label for="task-project">Project</label>
        <select
          id="task-project"
          value={item.project_id}
          onChange={(event) => {
            const to = event.currentTarget.value;
            moveTask(item, { project_id: to }, data.projects.get(to)?.name ?? 'another project');
          }}
        >
          {projects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </select>
      </span>
      <span class="field">
        <label for="task-section">Section</label>
        <select
          id="task-section"
          value={item.section_id ?? ''}
          onChange={(event) => {
            const to = event.currentTarget.value;
            if (to) moveTask(item, { section_id: to }, data.sections.get(to)?.name ?? 'a section');
            else moveTask(item, { project_id: item.project_id }, data.projects.get(item.project_id)?.name ?? 'the project');
          }}
        >
          <option value="">No section</option>
          {sections.map((section) => (
            <option key={section.id} value={section.id}>
              {section.name}
            </option>
          ))}
        </select>
      </span>
      <span class="field">
        <label for="task-priority">Priority</label>
        <select id="task-priority" value={String(item.priority)} onChange={(event) => updateItem(item.id, { priority: Number(event.currentTarget.value) })}>
          <option value="4">Priority 1</option>
          <option value="3">Priority 2</option>
          <option value="2">Priority 3</option>
          <option value="1">Priority 4</option>
        </select>
      </span>
    </div>
  );
}

/** The open sub-tasks (each a full row: complete, edit, reorder with Move up/down) and a box to add one. */
export function SubTasks({ item }: { item: Item }) {
  const [content, setContent] = useState('');
  const nodes = subtaskTree(viewData.value, item.id);
  return (
    <section aria-labelledby="subtasks-title" class="subtasks">
      <h2 id="subtasks-title">Sub-tasks</h2>
      {nodes.length > 0 ? <TaskTree nodes={nodes} label={`Sub-tasks of ${item.content}`} /> : <p class="empty">No sub-tasks.</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = content.trim();
          if (!trimmed) return;
          addItem({ content: trimmed, parent_id: item.id, project_id: item.project_id, ...(item.section_id ? { section_id: item.section_id } : {}) });
          setContent('');
        }}
      >
        <label for="task-new-subtask">Add sub-task</label>
        <input id="task-new-subtask" value={content} onInput={(event) => setContent(event.currentTarget.value)} autocomplete="off" />
        <button type="submit">Add sub-task</button>
      </form>
    </section>
  );
}

interface ActivityEvent {
  id: string;
  event_type: string;
  event_date: string;
  extra_data?: Record<string, unknown> | null;
}

const EVENT_WORDS: Record<string, string> = { added: 'Added', updated: 'Changed', completed: 'Completed', uncompleted: 'Reopened', deleted: 'Deleted', moved: 'Moved' };

/** The task's history from the activity log (api/v1/activities), asked again after each sync. */
export function TaskActivity({ item }: { item: Item }) {
  const [events, setEvents] = useState<ActivityEvent[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const token = viewData.value.syncToken;
  useEffect(() => {
    let current = true;
    const query = new URLSearchParams({ object_type: 'item', object_id: item.id, limit: '30' });
    api<{ results?: ActivityEvent[] }>(`/api/v1/activities?${query.toString()}`).then(
      (page) => current && (setEvents(page.results ?? []), setError(null)),
      () => current && setError('The activity log could not be loaded (it needs a connection, and a plan that keeps it).'),
    );
    return () => {
      current = false;
    };
  }, [item.id, token]);
  const settings = dateSettings(viewData.value.user);
  return (
    <section aria-labelledby="activity-title" class="activity">
      <h2 id="activity-title">Activity</h2>
      {error ? <p>{error}</p> : events === null ? <p>Loading…</p> : events.length === 0 ? <p class="empty">No activity yet.</p> : null}
      {events && events.length > 0 ? (
        <ul aria-label="Activity">
          {events.map((event) => (
            <li key={event.id} data-testid="activity-event">
              {EVENT_WORDS[event.event_type] ?? event.event_type} · {friendlyMoment(event.event_date, settings)}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
