import { useEffect, useRef, useState } from 'preact/hooks';
import type { Section } from '../api/sync-types';
import { run } from '../state/session';
import { viewData } from '../state/store';

type Mode = 'idle' | 'renaming' | 'confirming';

/** Escape goes back to the section's heading row without a change. */
const onEscape = (leave: () => void) => (event: KeyboardEvent) => {
  if (event.key !== 'Escape') return;
  event.preventDefault();
  event.stopPropagation();
  leave();
};

/** The project's sections in order, renumbered with `section` one place up (-1) or down (+1); empty at an end. */
function reordered(projectId: string, section: Section, step: -1 | 1): { id: string; section_order: number }[] {
  const siblings = [...viewData.value.sections.values()].filter((other) => other.project_id === projectId && !other.is_archived).sort((a, b) => (a.section_order ?? 0) - (b.section_order ?? 0));
  const from = siblings.findIndex((other) => other.id === section.id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= siblings.length) return [];
  [siblings[from], siblings[to]] = [siblings[to], siblings[from]];
  return siblings.map((other, index) => ({ id: other.id, section_order: index + 1 }));
}

/**
 * A section's heading with its actions: rename (section_update), move up or down
 * (section_reorder), archive (section_archive) and delete (section_delete, which takes its tasks
 * with it, so it asks first). Each shows at once through the pending overlay.
 */
export function SectionHeading({ section, canEdit }: { section: Section; canEdit: boolean }) {
  const [mode, setMode] = useState<Mode>('idle');
  const [name, setName] = useState(section.name);
  const field = useRef<HTMLInputElement>(null);
  const yes = useRef<HTMLButtonElement>(null);
  const back = useRef<HTMLButtonElement>(null);
  const left = useRef<Mode>('idle');
  useEffect(() => {
    if (mode === 'renaming') field.current?.select();
    else if (mode === 'confirming') yes.current?.focus();
    else if (left.current !== 'idle') back.current?.focus();
    left.current = mode;
  }, [mode]);
  const title = <h2 id={`section-${section.id}`}>{section.name}</h2>;
  if (!canEdit) return title;
  if (mode === 'renaming') {
    return (
      <form
        class="section-actions"
        aria-label={`Rename section ${section.name}`}
        onKeyDown={onEscape(() => setMode('idle'))}
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = name.trim();
          if (trimmed && trimmed !== section.name) run('section_update', { id: section.id, name: trimmed });
          setMode('idle');
        }}
      >
        {title}
        <label for={`section-name-${section.id}`}>Section name</label>
        <input id={`section-name-${section.id}`} ref={field} value={name} onInput={(event) => setName(event.currentTarget.value)} required autocomplete="off" />
        <button type="submit">Save section</button>
        <button type="button" onClick={() => setMode('idle')}>
          Cancel
        </button>
      </form>
    );
  }
  if (mode === 'confirming') {
    return (
      <div class="section-actions" role="group" aria-label={`Delete section ${section.name}?`} onKeyDown={onEscape(() => setMode('idle'))}>
        {title}
        <span>Delete “{section.name}” and its tasks?</span>
        <button type="button" ref={yes} onClick={() => run('section_delete', { id: section.id })}>
          Yes, delete section
        </button>
        <button type="button" onClick={() => setMode('idle')}>
          Cancel
        </button>
      </div>
    );
  }
  return (
    <div class="section-actions">
      {title}
      <details class="section-menu">
        <summary aria-label={`Section actions for ${section.name}`}>⋯</summary>
        <button
          type="button"
          ref={back}
          onClick={() => {
            setName(section.name);
            setMode('renaming');
          }}
        >
          Rename section
        </button>
        {([-1, 1] as const).map((step) => {
          const order = reordered(section.project_id, section, step);
          return (
            <button key={step} type="button" disabled={order.length === 0} onClick={() => run('section_reorder', { sections: order })}>
              {step < 0 ? 'Move section up' : 'Move section down'}
            </button>
          );
        })}
        <button type="button" onClick={() => run('section_archive', { id: section.id })}>
          Archive section
        </button>
        <button type="button" onClick={() => setMode('confirming')}>
          Delete section
        </button>
      </details>
    </div>
  );
}

/** A one-field form under a project's tasks: section_add with a temp id (shown at once). */
export function AddSection({ projectId }: { projectId: string }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const opener = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) field.current?.focus();
    else if (wasOpen.current) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);
  if (!open) {
    return (
      <button type="button" class="add-section" ref={opener} onClick={() => setOpen(true)}>
        Add section
      </button>
    );
  }
  return (
    <form
      class="section-actions"
      aria-label="Add section"
      onKeyDown={onEscape(() => setOpen(false))}
      onSubmit={(event) => {
        event.preventDefault();
        const trimmed = name.trim();
        if (trimmed) run('section_add', { name: trimmed, project_id: projectId }, crypto.randomUUID());
        setName('');
        setOpen(false);
      }}
    >
      <label for="new-section-name">New section name</label>
      <input id="new-section-name" ref={field} value={name} onInput={(event) => setName(event.currentTarget.value)} required autocomplete="off" />
      <button type="submit">Add</button>
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
    </form>
  );
}
