import { useEffect, useRef, useState } from 'preact/hooks';
import type { Project } from '../api/sync-types';
import { routeHash } from '../state/routes';
import { run } from '../state/session';
import { viewData } from '../state/store';

/**
 * The navigation's "New project": a button that opens a one-field form. The project is added
 * with `project_add` and a temp id, shown at once (the pending overlay) and opened by that temp
 * id as soon as the overlay has it; the session moves the route to the real id when the server
 * maps it. Escape or Cancel closes the form and gives focus back to the button. Given a
 * `parent`, the same form on a project's page adds a sub-project (`parent_id`; the server puts it
 * in the parent's workspace), and the navigation then shows it nested under its parent.
 */
export function NewProject({ parent }: { parent?: Project } = {}) {
  const what = parent ? 'sub-project' : 'project';
  const ids = parent ? 'new-sub-project' : 'new-project';
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  /** Set by Escape and Cancel: the person stays in the navigation (a new project opens its view instead). */
  const refocus = useRef(false);
  /**
   * The temp id of the project just added, until it shows: the queue stores a command before the
   * overlay has it, and opening the view before then would flash "Project not found".
   */
  const [opening, setOpening] = useState<string | null>(null);
  const shown = opening !== null && viewData.value.projects.has(opening);
  useEffect(() => {
    if (!shown || opening === null) return;
    location.hash = routeHash({ view: 'project', id: opening });
    setOpening(null);
  }, [shown, opening]);
  useEffect(() => {
    if (open) input.current?.focus();
    else if (refocus.current) button.current?.focus();
    refocus.current = false;
  }, [open]);
  const close = () => {
    refocus.current = true;
    setOpen(false);
    setName('');
  };
  const submit = (event: Event) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    const tempId = crypto.randomUUID();
    run('project_add', { name: trimmed, ...(parent ? { parent_id: parent.id } : {}) }, tempId);
    setOpen(false);
    setName('');
    setOpening(tempId);
  };
  return (
    <div class="new-project">
      <button type="button" ref={button} aria-expanded={open} aria-controls={open ? `${ids}-form` : undefined} onClick={() => (open ? close() : setOpen(true))}>
        {parent ? 'New sub-project' : 'New project'}
      </button>
      {open ? (
        <form
          id={`${ids}-form`}
          aria-label={parent ? `New sub-project of ${parent.name}` : 'New project'}
          onSubmit={submit}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              close();
            }
          }}
        >
          <label for={`${ids}-name`}>{parent ? 'Sub-project name' : 'Project name'}</label>
          <input id={`${ids}-name`} ref={input} value={name} onInput={(event) => setName(event.currentTarget.value)} required autocomplete="off" />
          <span class="actions">
            <button type="submit">{`Add ${what}`}</button>
            <button type="button" onClick={close}>
              Cancel
            </button>
          </span>
        </form>
      ) : null}
    </div>
  );
}
