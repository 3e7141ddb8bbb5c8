import { useEffect, useMemo, useState } from 'preact/hooks';
import { quickAddNames, quickAddParts, quickAddSpans, quickAddSummary } from '../state/quick-add-highlights';
import { viewData } from '../state/store';

/** How long typing must pause before the summary is announced: one announcement per pause, not per key. */
const ANNOUNCE_AFTER_MS = 700;

/**
 * What quick add will take from the line, highlighted under the box as the person types, and
 * said once typing pauses through a polite live region (focus stays in the box). The drawing is
 * hidden from screen readers: the sentence says the same without reading the line twice.
 */
export function QuickAddPreview({ line }: { line: string }) {
  const data = viewData.value;
  const names = useMemo(() => quickAddNames(data), [data.projects, data.sections, data.collaborators, data.collaborator_states, data.user]);
  const spans = useMemo(() => quickAddSpans(line, names), [line, names]);
  const summary = quickAddSummary(spans);
  const [announced, setAnnounced] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setAnnounced(summary), ANNOUNCE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [summary]);
  return (
    <>
      {spans.length > 0 ? (
        <p class="quick-add-preview" aria-hidden="true" data-testid="quick-add-preview">
          {quickAddParts(line, spans).map((part, index) =>
            part.kind === 'text' ? (
              part.text
            ) : (
              <mark key={index} class={`qa-${part.kind}`} data-kind={part.kind}>
                {part.text}
              </mark>
            ),
          )}
        </p>
      ) : null}
      <p class="visually-hidden" aria-live="polite" data-testid="quick-add-summary">
        {announced}
      </p>
    </>
  );
}
