import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Filter, Label } from '../api/sync-types';
import { run } from '../state/session';
import { ColourSelect } from './colour-select';

/** Label colours by name, as label_update's `color` takes them (the same palette as projects). */

type Mode = 'idle' | 'renaming' | 'confirming';

/** Focus goes into what opened and back to the button that opened it when it closes. */
function useModeFocus(mode: Mode) {
  const field = useRef<HTMLInputElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const left = useRef<Mode>('idle');
  useEffect(() => {
    if (mode === 'renaming') field.current?.select();
    else if (mode === 'confirming') confirm.current?.focus();
    else if (left.current !== 'idle') opener.current?.focus();
    left.current = mode;
  }, [mode]);
  return { field, confirm, opener };
}

const escapeTo = (leave: () => void) => (event: KeyboardEvent) => {
  if (event.key !== 'Escape') return;
  event.preventDefault();
  event.stopPropagation();
  leave();
};

/**
 * A personal label's rename (label_update: the server renames it on its tasks too), colour and
 * delete (label_delete: taken off its tasks; asks first, then opens Today).
 */
export function LabelActions({ label }: { label: Label }) {
  const [mode, setMode] = useState<Mode>('idle');
  const [name, setName] = useState(label.name);
  const { field, confirm, opener } = useModeFocus(mode);
  if (mode === 'renaming') {
    return (
      <form
        class="project-actions"
        aria-label={`Rename label ${label.name}`}
        onKeyDown={escapeTo(() => setMode('idle'))}
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = name.trim().replace(/^@/, '');
          if (trimmed && trimmed !== label.name) {
            run('label_update', { id: label.id, name: trimmed });
            // The view is addressed by the name: follow it.
            history.replaceState(history.state, '', `#/label/${encodeURIComponent(trimmed)}`);
            dispatchEvent(new HashChangeEvent('hashchange'));
          }
          setMode('idle');
        }}
      >
        <label for="label-new-name">New label name</label>
        <input id="label-new-name" ref={field} value={name} onInput={(event) => setName(event.currentTarget.value)} required autocomplete="off" />
        <button type="submit">Save name</button>
        <button type="button" onClick={() => setMode('idle')}>
          Cancel
        </button>
      </form>
    );
  }
  if (mode === 'confirming') {
    return (
      <div class="project-actions" role="group" aria-label={`Delete label ${label.name}?`} onKeyDown={escapeTo(() => setMode('idle'))}>
        <span>Delete “@{label.name}”? Its tasks stay, without it.</span>
        <button
          type="button"
          ref={confirm}
          onClick={() => {
            run('label_delete', { id: label.id });
            location.hash = '#/today';
          }}
        >
          Yes, delete label
        </button>
        <button type="button" onClick={() => setMode('idle')}>
          Cancel
        </button>
      </div>
    );
  }
  return (
    <div class="project-actions">
      <button
        type="button"
        ref={opener}
        onClick={() => {
          setName(label.name);
          setMode('renaming');
        }}
      >
        Rename label
      </button>
      <ColourSelect id="label-colour" value={label.color} onChange={(color) => run('label_update', { id: label.id, color })} />
      <button type="button" onClick={() => setMode('confirming')}>
        Delete label
      </button>
    </div>
  );
}

/**
 * A saved filter's name and query in the filter language: filter_add (a new one, opened at once
 * by its temp id) or filter_update. The server checks the query; a wrong one is refused with its
 * reason, shown as the notice, and the filter's page shows the server's error for its query.
 */
export function FilterForm({ filter, onDone }: { filter?: Filter; onDone: () => void }) {
  const [name, setName] = useState(filter?.name ?? '');
  const [query, setQuery] = useState(filter?.query ?? '');
  const first = useRef<HTMLInputElement>(null);
  // In the commit that shows the form, not after the next paint (useEffect): a person (or a
  // test driving the page) who clicks straight into the query field must not have the focus
  // pulled back to the name halfway through typing, which sent the query's text into the name.
  useLayoutEffect(() => first.current?.focus(), []);
  return (
    <form
      class="editor filter-form"
      aria-label={filter ? `Edit filter ${filter.name}` : 'New filter'}
      onKeyDown={escapeTo(onDone)}
      onSubmit={(event) => {
        event.preventDefault();
        const trimmedName = name.trim();
        const trimmedQuery = query.trim();
        if (!trimmedName || !trimmedQuery) return;
        if (filter) {
          const changes: Record<string, string> = {};
          if (trimmedName !== filter.name) changes['name'] = trimmedName;
          if (trimmedQuery !== filter.query) changes['query'] = trimmedQuery;
          if (Object.keys(changes).length > 0) run('filter_update', { id: filter.id, ...changes });
          onDone();
        } else {
          const tempId = crypto.randomUUID();
          run('filter_add', { name: trimmedName, query: trimmedQuery }, tempId);
          onDone();
          location.hash = `#/filter/${encodeURIComponent(tempId)}`;
        }
      }}
    >
      <span class="field">
        <label for="filter-name">Filter name</label>
        <input id="filter-name" ref={first} value={name} onInput={(event) => setName(event.currentTarget.value)} required autocomplete="off" />
      </span>
      <span class="field wide">
        <label for="filter-query">Query</label>
        <input id="filter-query" value={query} onInput={(event) => setQuery(event.currentTarget.value)} required autocomplete="off" placeholder="e.g. today & @calls, p1 | overdue" />
      </span>
      <button type="submit">{filter ? 'Save filter' : 'Add filter'}</button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}
