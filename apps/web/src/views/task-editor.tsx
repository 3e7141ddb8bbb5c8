import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import type { ArgsDraft, Item } from '../api/sync-types';
import { composeDue, RECURRENCE_CHOICES, recurrenceOf, type Recurrence } from '../state/recurrence';
import { run, updateItem } from '../state/session';
import { viewData } from '../state/store';
import { moveTask } from '../state/task-actions';
import { projectPeople, reorderSiblings } from '../state/task-selectors';

/** A labelled control: `for`/`id`, so a select's options never become part of its name. */
function Field({ label, children }: { label: string; children: (id: string) => ComponentChildren }) {
  const id = useId();
  return (
    <span class="field">
      <label for={id}>{label}</label>
      {children(id)}
    </span>
  );
}

/** Content, due (natural language, parsed by the server) and priority of one task. */
export function TaskEditor({ item, onDone }: { item: Item; onDone: () => void }) {
  const [content, setContent] = useState(item.content);
  const [due, setDue] = useState(item.due?.string ?? '');
  const [priority, setPriority] = useState(String(item.priority));
  const [assignee, setAssignee] = useState(item.responsible_uid ?? '');
  const [deadline, setDeadline] = useState(item.deadline?.date ?? '');
  const [projectId, setProjectId] = useState(item.project_id);
  const people = projectPeople(viewData.value, item.project_id);
  const projects = [...viewData.value.projects.values()].filter((project) => !project.is_archived);
  // The due text is what is sent; Repeat is read from it and rewrites it (the server's own words).
  const repeat = recurrenceOf(due, due === item.due?.string && item.due.is_recurring === true);
  const submit = (event: Event) => {
    event.preventDefault();
    const changes: Omit<ArgsDraft<'item_update'>, 'id'> = {};
    if (content.trim() && content !== item.content) changes.content = content.trim();
    if (due !== (item.due?.string ?? '')) changes.due = due.trim() ? { string: due.trim() } : null;
    if (Number(priority) !== item.priority) changes.priority = Number(priority);
    if (assignee !== (item.responsible_uid ?? '')) changes.responsible_uid = assignee || null;
    if (deadline !== (item.deadline?.date ?? '')) changes.deadline = deadline ? { date: deadline } : null;
    if (Object.keys(changes).length > 0) updateItem(item.id, changes);
    // Another project is a move (item_move), not an update: sections and parents stay behind.
    if (projectId !== item.project_id) moveTask(item, { project_id: projectId }, viewData.value.projects.get(projectId)?.name ?? 'another project');
    onDone();
  };
  return (
    <form
      class="editor"
      onSubmit={submit}
      aria-label={`Edit task ${item.content}`}
      onKeyDown={(event) => {
        // Escape closes the editor without a change; focus goes back to its Edit button.
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        onDone();
      }}
    >
      <Field label="Task name">
        {(id) => (
        <input id={id} value={content} onInput={(event) => setContent(event.currentTarget.value)} required />
        )}
      </Field>
      <Field label="Due date">
        {(id) => (
        <input id={id} value={due} onInput={(event) => setDue(event.currentTarget.value)} placeholder="e.g. tomorrow 9am, every monday" />
        )}
      </Field>
      <Field label="Repeat">
        {(id) => (
        <select id={id} value={repeat} onChange={(event) => setDue(composeDue(due, event.currentTarget.value as Recurrence, item.due?.date))}>
          {RECURRENCE_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
          {repeat === 'custom' ? <option value="custom">As typed in Due date</option> : null}
        </select>
        )}
      </Field>
      <Field label="Priority">
        {(id) => (
        <select id={id} value={priority} onChange={(event) => setPriority(event.currentTarget.value)}>
          <option value="4">Priority 1</option>
          <option value="3">Priority 2</option>
          <option value="2">Priority 3</option>
          <option value="1">Priority 4</option>
        </select>
        )}
      </Field>
      <Field label="Deadline">
        {(id) => (
        <input id={id} type="date" value={deadline} onInput={(event) => setDeadline(event.currentTarget.value)} />
        )}
      </Field>
      <Field label="Project">
        {(id) => (
        <select id={id} value={projectId} onChange={(event) => setProjectId(event.currentTarget.value)}>
          {projects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </select>
        )}
      </Field>
      {people.length > 0 ? (
        <Field label="Assignee">
          {(id) => (
          <select id={id} value={assignee} onChange={(event) => setAssignee(event.currentTarget.value)}>
            <option value="">Nobody</option>
            {people.map((person) => (
              <option key={person.id} value={person.id}>
                {person.full_name ?? person.email}
              </option>
            ))}
          </select>
          )}
        </Field>
      ) : null}
      <button type="submit">Save</button>
      {([-1, 1] as const).map((step) => {
        const order = reorderSiblings(viewData.value, item, step);
        return (
          <button key={step} type="button" disabled={order.length === 0} onClick={() => run('item_reorder', { items: order })}>
            {step < 0 ? 'Move up' : 'Move down'}
          </button>
        );
      })}
      <button type="button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}
