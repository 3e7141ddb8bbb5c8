import { useEffect, useRef, useState } from 'preact/hooks';
import type { Project } from '../api/sync-types';
import type { projectRights } from '../state/roles';
import { run } from '../state/session';
import { ColourSelect } from './colour-select';

type Mode = 'idle' | 'renaming' | 'confirming' | 'leaving';

/** Todoist's project colours by name (what project_update's `color` takes). */

/**
 * Rename (`project_update`) and delete (`project_delete`, which takes the project's tasks with
 * it, so it asks first) a project from its page. Both show at once through the pending overlay;
 * the server refuses what the person may not do (a shared project they do not own) and the
 * screen then shows what it kept. Escape or Cancel goes back without a change.
 */
export function ProjectActions({ project, rights }: { project: Project; rights: ReturnType<typeof projectRights> }) {
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
    else if (mode === 'confirming' || mode === 'leaving') confirm.current?.focus();
    else if (left.current === 'renaming') renameButton.current?.focus();
    else if (left.current === 'confirming' || left.current === 'leaving') deleteButton.current?.focus();
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
  if (mode === 'leaving') {
    return (
      <div class="project-actions" role="group" aria-label={`Leave project ${project.name}?`} onKeyDown={cancelOnEscape}>
        <span>Leave “{project.name}”? Its tasks stay with the others on it.</span>
        <button
          type="button"
          ref={confirm}
          onClick={() => {
            run('project_leave', { project_id: project.id });
            location.hash = '#/inbox';
          }}
        >
          Yes, leave
        </button>
        <button type="button" onClick={() => setMode('idle')}>
          Cancel
        </button>
      </div>
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
  // Only what the person's role allows is offered: the server would refuse the rest.
  return (
    <div class="project-actions">
      {rights.manage ? (
        <>
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
          <ColourSelect id="project-colour" value={project.color} onChange={(color) => run('project_update', { id: project.id, color })} />
          <button type="button" onClick={() => run(project.is_archived ? 'project_unarchive' : 'project_archive', { id: project.id })}>
            {project.is_archived ? 'Unarchive project' : 'Archive project'}
          </button>
        </>
      ) : null}
      <button type="button" aria-pressed={project.is_favorite === true} onClick={() => run('project_update', { id: project.id, is_favorite: !project.is_favorite })}>
        Favourite
      </button>
      {rights.delete ? (
        <button type="button" ref={deleteButton} onClick={() => setMode('confirming')}>
          Delete project
        </button>
      ) : null}
      {rights.leave ? (
        <button type="button" ref={deleteButton} onClick={() => setMode('leaving')}>
          Leave project
        </button>
      ) : null}
    </div>
  );
}
