import { useEffect, useRef, useState } from 'preact/hooks';
import type { Project } from '../api/sync-types';
import { run } from '../state/session';

type Mode = 'idle' | 'renaming' | 'confirming';

/**
 * Rename (`project_update`) and delete (`project_delete`, which takes the project's tasks with
 * it, so it asks first) a project from its page. Both show at once through the pending overlay;
 * the server refuses what the person may not do (a shared project they do not own) and the
 * screen then shows what it kept. Escape or Cancel goes back without a change.
 */
export function ProjectActions({ project }: { project: Project }) {
  const [mode, setMode] = useState<Mode>('idle');
  const [name, setName] = useState(project.name);
  const field = useRef<HTMLInputElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  /** The mode left last: back to idle, focus returns to the button that opened it. */
  const left = useRef<Mode>('idle');
  useEffect(() => {
    if (mode === 'renaming') field.current?.select();
    else if (mode === 'confirming') confirm.current?.focus();
    else if (left.current === 'renaming') renameButton.current?.focus();
    else if (left.current === 'confirming') deleteButton.current?.focus();
    left.current = mode;
  }, [mode]);
  const cancelOnEscape = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    setMode('idle');
  };
  if (mode === 'renaming') {
    return (
      <form
        class="project-actions"
        aria-label={`Rename project ${project.name}`}
        onKeyDown={cancelOnEscape}
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = name.trim();
          if (trimmed && trimmed !== project.name) run('project_update', { id: project.id, name: trimmed });
          setMode('idle');
        }}
      >
        <label for="project-new-name">New name</label>
        <input id="project-new-name" ref={field} value={name} onInput={(event) => setName(event.currentTarget.value)} required autocomplete="off" />
        <button type="submit">Save name</button>
        <button type="button" onClick={() => setMode('idle')}>
          Cancel
        </button>
      </form>
    );
  }
  if (mode === 'confirming') {
    return (
      <div class="project-actions" role="group" aria-label={`Delete project ${project.name}?`} onKeyDown={cancelOnEscape}>
        <span>Delete “{project.name}” and its tasks?</span>
        <button
          type="button"
          ref={confirm}
          onClick={() => {
            run('project_delete', { id: project.id });
            location.hash = '#/inbox';
          }}
        >
          Yes, delete
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
        ref={renameButton}
        onClick={() => {
          setName(project.name);
          setMode('renaming');
        }}
      >
        Rename project
      </button>
      <button type="button" ref={deleteButton} onClick={() => setMode('confirming')}>
        Delete project
      </button>
    </div>
  );
}
