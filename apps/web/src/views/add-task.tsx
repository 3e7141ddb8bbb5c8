import { useRef, useState } from 'preact/hooks';
import type { CommandArgs } from '../api/sync-types';
import { suggestions } from '../state/quick-add-suggest';
import { quickAdd } from '../state/rest-calls';
import { addItem } from '../state/session';
import { route, viewData } from '../state/store';
import { QuickAddPreview } from './quick-add-preview';

const KIND_WORDS = { project: 'project', section: 'section', label: 'label', assignee: 'person' } as const;

/**
 * Names for the `#project`, `/section`, `@label` or `+assignee` being typed: a list of buttons
 * under the box (ArrowDown from the box goes to the first); a choice completes the word and
 * gives the box back its focus.
 */
function Suggestions({ line, onPick, inputId }: { line: string; onPick: (line: string) => void; inputId: string }) {
  const current = route.value;
  const found = suggestions(viewData.value, line, current.view === 'project' ? current.id : undefined);
  if (found.length === 0) return null;
  return (
    <ul class="suggestions" aria-label="Suggestions" id={`${inputId}-suggestions`}>
      {found.map((suggestion) => (
        <li key={`${suggestion.kind}:${suggestion.name}`}>
          <button
            type="button"
            onClick={() => onPick(suggestion.line)}
            onKeyDown={(event) => {
              const item = event.currentTarget.parentElement;
              const next = event.key === 'ArrowDown' ? item?.nextElementSibling : event.key === 'ArrowUp' ? item?.previousElementSibling : null;
              if (next) {
                event.preventDefault();
                next.querySelector<HTMLButtonElement>('button')?.focus();
              } else if (event.key === 'ArrowUp' || event.key === 'Escape') {
                event.preventDefault();
                document.getElementById(inputId)?.focus();
              }
            }}
          >
            {suggestion.name} <span class="due">{KIND_WORDS[suggestion.kind]}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The add box: the whole line goes to quick add, so `#Project @label p1 tomorrow` works as in
 * every other client. `context` (e.g. `#Work`) is appended so a task added in a view lands there,
 * unless the line names a project itself; `dueIfNone` dates a task the line left undated.
 * `offlineArgs` says the same as `context` in item_add's terms (`project_id`, `labels`): offline,
 * the line is queued as typed, and without them it would land in the Inbox with `#Work` in its name.
 * `queued` sends it that way even online: a project still waiting for its `project_add` answer
 * is not yet known to quick add by name, but the queue's item_add names it by its temp id.
 */
export function AddTask({ context, dueIfNone, inputId, offlineArgs, queued, onAdded }: { context?: string; dueIfNone?: string; inputId?: string; offlineArgs?: Omit<CommandArgs['item_add'], 'content'>; queued?: boolean; onAdded?: () => void }) {
  const [text, setText] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const id = inputId ?? 'add-task';
  const submit = (event: Event) => {
    event.preventDefault();
    const line = text.trim();
    if (!line) return;
    setText('');
    onAdded?.();
    const named = context?.startsWith('#') && /(^|\s)#\S/.test(line);
    if (queued && !named) {
      addItem({ content: line, ...offlineArgs });
      return;
    }
    void quickAdd(context && !named ? `${line} ${context}` : line, dueIfNone, { content: line, ...(named ? {} : offlineArgs) });
  };
  return (
    <form class="add-task" onSubmit={submit} aria-label="Quick add">
      <label for={id} class="visually-hidden">
        Add task
      </label>
      <input
        id={id}
        ref={input}
        data-testid="add-task"
        value={text}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key !== 'ArrowDown') return;
          const first = document.querySelector<HTMLButtonElement>(`#${id}-suggestions button`);
          if (!first) return;
          event.preventDefault();
          first.focus();
        }}
        placeholder="Add task, e.g. Call Ana tomorrow p1 #Work"
        autocomplete="off"
      />
      <button type="submit">Add</button>
      <Suggestions
        line={text}
        inputId={id}
        onPick={(line) => {
          setText(line);
          input.current?.focus();
        }}
      />
      <QuickAddPreview line={text} />
    </form>
  );
}
