import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/http';
import type { ArgsDraft, Item } from '../api/sync-types';
import { closeTaskView } from '../state/focus';
import { updateItem } from '../state/session';
import { notify, serverData, viewData } from '../state/store';
import { completeTask, deleteTask, duplicateTask, reopenTask } from '../state/task-actions';
import { Comments } from './comments';
import { Description } from './description';
import { Reminders } from './reminders';
import { DeadlineAndDuration, DuePicker } from './task-schedule';
import { SubTasks, TaskActivity, TaskLabels, TaskPlace } from './task-parts';

/** The address a task is shared by: the one the server writes in mails and REST answers. */
export const taskLink = (id: string) => `${location.origin}/app/task/${encodeURIComponent(id)}`;

/** Name and description, edited together and saved as one item_update of what changed. */
function TaskText({ item }: { item: Item }) {
  const [editing, setEditing] = useState(false);
  const [content, setContent] = useState(item.content);
  const [description, setDescription] = useState(item.description ?? '');
  const opener = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const wasEditing = useRef(false);
  // In the commit that opens the editor (not after a paint): typing straight into the
  // description must not have the focus pulled to the name halfway (organise-forms' FilterForm).
  useLayoutEffect(() => {
    if (editing) field.current?.focus();
    else if (wasEditing.current) opener.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  if (!editing) {
    return (
      <>
        <Description text={item.description ?? ''} />
        <button
          type="button"
          ref={opener}
          onClick={() => {
            setContent(item.content);
            setDescription(item.description ?? '');
            setEditing(true);
          }}
        >
          Edit name and description
        </button>
      </>
    );
  }
  return (
    <form
      class="editor"
      aria-label="Edit name and description"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        setEditing(false);
      }}
      onSubmit={(event) => {
        event.preventDefault();
        const changes: Omit<ArgsDraft<'item_update'>, 'id'> = {};
        if (content.trim() && content.trim() !== item.content) changes.content = content.trim();
        if (description !== (item.description ?? '')) changes.description = description;
        if (Object.keys(changes).length > 0) updateItem(item.id, changes);
        setEditing(false);
      }}
    >
      <span class="field">
        <label for="task-name">Task name</label>
        <input id="task-name" ref={field} value={content} onInput={(event) => setContent(event.currentTarget.value)} required />
      </span>
      <span class="field wide">
        <label for="task-description">Description</label>
        <textarea id="task-description" rows={5} value={description} onInput={(event) => setDescription(event.currentTarget.value)} />
      </span>
      <button type="submit">Save</button>
      <button type="button" onClick={() => setEditing(false)}>
        Cancel
      </button>
    </form>
  );
}

/** Delete (asks first; Undo for a while after), duplicate and copy link. */
function TaskCommands({ item }: { item: Item }) {
  const [confirming, setConfirming] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (confirming) yes.current?.focus();
    else if (asked.current) deleteButton.current?.focus();
    asked.current = confirming;
  }, [confirming]);
  const copy = () => {
    const link = taskLink(item.id);
    (navigator.clipboard?.writeText(link) ?? Promise.reject(new Error('no clipboard'))).then(
      () => notify('Link copied.'),
      () => notify(`Copy this link: ${link}`),
    );
  };
  if (confirming) {
    return (
      <div
        class="task-commands"
        role="group"
        aria-label={`Delete task ${item.content}?`}
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          event.preventDefault();
          event.stopPropagation();
          setConfirming(false);
        }}
      >
        <span>Delete “{item.content}” and its sub-tasks?</span>
        <button
          type="button"
          ref={yes}
          onClick={() => {
            deleteTask(item);
            closeTaskView(item);
          }}
        >
          Yes, delete
        </button>
        <button type="button" onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </div>
    );
  }
  return (
    <div class="task-commands">
      <button
        type="button"
        onClick={() => {
          duplicateTask(item);
          notify(`Duplicated “${item.content}”.`);
        }}
      >
        Duplicate
      </button>
      <button type="button" onClick={copy}>
        Copy link
      </button>
      <button type="button" ref={deleteButton} onClick={() => setConfirming(true)}>
        Delete task
      </button>
    </div>
  );
}

/**
 * A completed task is not in the synced state (the Sync API leaves completed tasks out): the
 * view asks the REST API for it, so a link to it (a mail, Completed) still opens it to reopen.
 */
function useTask(id: string): Item | null | undefined {
  const synced = viewData.value.items.get(id);
  const [fetched, setFetched] = useState<Item | null | undefined>(undefined);
  const ready = serverData.value.user !== null;
  useEffect(() => {
    if (synced || !ready) return;
    let current = true;
    api<Item>(`/api/v1/tasks/${encodeURIComponent(id)}`).then(
      (item) => current && setFetched(item),
      () => current && setFetched(null),
    );
    return () => {
      current = false;
    };
  }, [id, synced === undefined, ready]);
  return synced ?? fetched;
}

export function TaskPage({ id }: { id: string }) {
  const item = useTask(id);
  useEffect(() => {
    // Escape closes the view, unless a field or a form inside it took the key first.
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if (target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return;
      event.preventDefault();
      closeTaskView(item ?? undefined);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [item?.id]);
  if (item === undefined) {
    return (
      <h1 id="view-title" tabIndex={-1}>
        Loading task…
      </h1>
    );
  }
  if (item === null || item.is_deleted) {
    return (
      <>
        <h1 id="view-title" tabIndex={-1}>
          Task not found
        </h1>
        <p>This task was deleted, or it is in a project no longer shared with you.</p>
      </>
    );
  }
  const project = viewData.value.projects.get(item.project_id);
  const parent = item.parent_id ? viewData.value.items.get(item.parent_id) : undefined;
  return (
    <article class="task-view" aria-labelledby="view-title" data-testid="task-view">
      <p class="breadcrumb">
        {project ? <a href={`#/project/${encodeURIComponent(project.id)}`}>{project.name}</a> : null}
        {parent ? (
          <>
            {' › '}
            <a href={`#/task/${encodeURIComponent(parent.id)}`}>{parent.content}</a>
          </>
        ) : null}
      </p>
      <div class="task-title">
        {item.checked ? (
          <button type="button" onClick={() => reopenTask(item)}>
            Reopen task
          </button>
        ) : (
          <input type="checkbox" checked={false} onChange={() => completeTask(item)} aria-label={`Complete ${item.content}`} />
        )}
        <h1 id="view-title" tabIndex={-1} class={item.checked ? 'done' : undefined}>
          {item.content}
        </h1>
        <button type="button" onClick={() => closeTaskView(item)}>
          Close
        </button>
      </div>
      {item.checked ? <p role="status">Completed.</p> : null}
      <TaskText item={item} />
      <TaskCommands item={item} />
      <TaskPlace item={item} />
      <DuePicker item={item} />
      <DeadlineAndDuration item={item} />
      <TaskLabels item={item} />
      <SubTasks item={item} />
      <section aria-labelledby="reminders-title">
        <h2 id="reminders-title">Reminders</h2>
        <Reminders item={item} />
      </section>
      <section aria-labelledby="comments-title">
        <h2 id="comments-title">Comments</h2>
        <Comments item={item} />
      </section>
      <TaskActivity item={item} />
    </article>
  );
}
