import { useState } from 'preact/hooks';
import { quickAdd } from '../state/session';

/**
 * The add box: the whole line goes to quick add, so `#Project @label p1 tomorrow` works as in
 * every other client. `context` is appended (e.g. `#Work`) so a task added in a view lands there.
 */
export function AddTask({ context, inputId }: { context?: string; inputId?: string }) {
  const [text, setText] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    const line = text.trim();
    if (!line) return;
    setText('');
    void quickAdd(context ? `${line} ${context}` : line);
  };
  return (
    <form class="add-task" onSubmit={submit} aria-label="Quick add">
      <label for={inputId ?? 'add-task'} class="visually-hidden">
        Add task
      </label>
      <input id={inputId ?? 'add-task'} data-testid="add-task" value={text} onInput={(event) => setText(event.currentTarget.value)} placeholder="Add task, e.g. Call Ana tomorrow p1 #Work" autocomplete="off" />
      <button type="submit">Add</button>
    </form>
  );
}
