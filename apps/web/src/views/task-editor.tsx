import { useState } from 'preact/hooks';
import type { Item } from '../api/sync-types';
import { updateItem } from '../state/session';
import { viewData } from '../state/store';
import { projectPeople } from '../state/task-selectors';

/** Content, due (natural language, parsed by the server) and priority of one task. */
export function TaskEditor({ item, onDone }: { item: Item; onDone: () => void }) {
  const [content, setContent] = useState(item.content);
  const [due, setDue] = useState(item.due?.string ?? '');
  const [priority, setPriority] = useState(String(item.priority));
  const [assignee, setAssignee] = useState(item.responsible_uid ?? '');
  const people = projectPeople(viewData.value, item.project_id);
  const submit = (event: Event) => {
    event.preventDefault();
    const changes: Record<string, unknown> = {};
    if (content.trim() && content !== item.content) changes['content'] = content.trim();
    if (due !== (item.due?.string ?? '')) changes['due'] = due.trim() ? { string: due.trim() } : null;
    if (Number(priority) !== item.priority) changes['priority'] = Number(priority);
    if (assignee !== (item.responsible_uid ?? '')) changes['responsible_uid'] = assignee || null;
    if (Object.keys(changes).length > 0) updateItem(item.id, changes);
    onDone();
  };
  return (
    <form class="editor" onSubmit={submit} aria-label={`Edit task ${item.content}`}>
      <label>
        Task name
        <input value={content} onInput={(event) => setContent(event.currentTarget.value)} required />
      </label>
      <label>
        Due date
        <input value={due} onInput={(event) => setDue(event.currentTarget.value)} placeholder="e.g. tomorrow 9am, every monday" />
      </label>
      <label>
        Priority
        <select value={priority} onChange={(event) => setPriority(event.currentTarget.value)}>
          <option value="4">Priority 1</option>
          <option value="3">Priority 2</option>
          <option value="2">Priority 3</option>
          <option value="1">Priority 4</option>
        </select>
      </label>
      {people.length > 0 ? (
        <label>
          Assignee
          <select value={assignee} onChange={(event) => setAssignee(event.currentTarget.value)}>
            <option value="">Nobody</option>
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {person.full_name ?? person.email}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <button type="submit">Save</button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}
