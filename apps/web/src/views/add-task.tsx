import { useRef, useState } from 'preact/hooks';
import type { CommandArgs } from '../api/sync-types';
import { COMBOBOX_START, comboboxKey, type ComboboxState, expanded } from '../state/combobox-keys';
import { type Suggestion, suggestions } from '../state/quick-add-suggest';
import { quickAdd } from '../state/rest-calls';
import { addItem } from '../state/session';
import { route, viewData } from '../state/store';
import { QuickAddPreview } from './quick-add-preview';

const KIND_WORDS = { project: 'project', section: 'section', label: 'label', assignee: 'person' } as const;

const optionId = (inputId: string, index: number) => `${inputId}-option-${index}`;

/**
 * Names for the `#project`, `/section`, `@label` or `+assignee` being typed: the box's listbox
 * (the WAI-ARIA combobox pattern, keys in `state/combobox-keys.ts`). The focus stays in the box;
 * the active option is the one `aria-activedescendant` names. A click takes an option too
 * (mousedown keeps the focus in the box).
 */
function Suggestions({ found, inputId, active, onPick }: { found: Suggestion[]; inputId: string; active: number; onPick: (line: string) => void }) {
  return (
    <ul class="suggestions" role="listbox" aria-label="Suggestions" id={`${inputId}-suggestions`}>
      {found.map((suggestion, index) => (
        <li
          key={`${suggestion.kind}:${suggestion.name}`}
          id={optionId(inputId, index)}
          role="option"
          aria-selected={index === active}
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onPick(suggestion.line)}
        >
          {suggestion.name} <span class="due">{KIND_WORDS[suggestion.kind]}</span>
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
  const [combo, setCombo] = useState<ComboboxState>(COMBOBOX_START);
  const input = useRef<HTMLInputElement>(null);
  const id = inputId ?? 'add-task';
  const current = route.value;
  const found = suggestions(viewData.value, text, current.view === 'project' ? current.id : undefined);
  const listShown = expanded(combo, found.length);
  const active = listShown && combo.active >= 0 && combo.active < found.length ? combo.active : -1;
  const pick = (line: string) => {
    setText(line);
    setCombo(COMBOBOX_START);
    input.current?.focus();
  };
  const submit = (event: Event) => {
    event.preventDefault();
    const line = text.trim();
    if (!line) return;
    setText('');
    setCombo(COMBOBOX_START);
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
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={listShown}
        aria-controls={`${id}-suggestions`}
        aria-activedescendant={active >= 0 ? optionId(id, active) : undefined}
        value={text}
        onInput={(event) => {
          setText(event.currentTarget.value);
          setCombo(COMBOBOX_START);
        }}
        onKeyDown={(event) => {
          if (event.altKey || event.ctrlKey || event.metaKey) return;
          const result = comboboxKey({ ...combo, active }, event.key, found.length);
          if (!result.handled) return;
          // Escape that only closed the list must not also close a dialog the box is in.
          event.preventDefault();
          event.stopPropagation();
          setCombo(result.state);
          if (result.pick !== undefined) pick(found[result.pick].line);
        }}
        onBlur={() => setCombo((state) => ({ ...state, active: -1 }))}
        placeholder="Add task, e.g. Call Ana tomorrow p1 #Work"
        autocomplete="off"
      />
      <button type="submit">Add</button>
      {/* Always in the page (empty when closed), so aria-controls names an element. */}
      {listShown ? <Suggestions found={found} inputId={id} active={active} onPick={pick} /> : <ul class="suggestions" role="listbox" aria-label="Suggestions" id={`${id}-suggestions`} hidden />}
      <QuickAddPreview line={text} />
    </form>
  );
}
