import { useState } from 'preact/hooks';
import { quickAdd } from '../state/rest-calls';
import { addItem } from '../state/session';
import { QuickAddPreview } from './quick-add-preview';

/**
 * The add box: the whole line goes to quick add, so `#Project @label p1 tomorrow` works as in
 * every other client. `context` (e.g. `#Work`) is appended so a task added in a view lands there,
 * unless the line names a project itself; `dueIfNone` dates a task the line left undated.
 * `offlineArgs` says the same as `context` in item_add's terms (`project_id`, `labels`): offline,
 * the line is queued as typed, and without them it would land in the Inbox with `#Work` in its name.
 * `queued` sends it that way even online: a project still waiting for its `project_add` answer
 * is not yet known to quick add by name, but the queue's item_add names it by its temp id.
 */
export function AddTask({ context, dueIfNone, inputId, offlineArgs, queued }: { context?: string; dueIfNone?: string; inputId?: string; offlineArgs?: Record<string, unknown>; queued?: boolean }) {
  const [text, setText] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    const line = text.trim();
    if (!line) return;
    setText('');
    const named = context?.startsWith('#') && /(^|\s)#\S/.test(line);
    if (queued && !named) {
      addItem({ content: line, ...offlineArgs });
      return;
    }
    void quickAdd(context && !named ? `${line} ${context}` : line, dueIfNone, { content: line, ...(named ? {} : offlineArgs) });
  };
  return (
    <form class="add-task" onSubmit={submit} aria-label="Quick add">
      <label for={inputId ?? 'add-task'} class="visually-hidden">
        Add task
      </label>
      <input id={inputId ?? 'add-task'} data-testid="add-task" value={text} onInput={(event) => setText(event.currentTarget.value)} placeholder="Add task, e.g. Call Ana tomorrow p1 #Work" autocomplete="off" />
      <button type="submit">Add</button>
      <QuickAddPreview line={text} />
    </form>
  );
}
