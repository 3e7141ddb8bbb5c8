import { findNamed, type Named } from '@doable/shared-quick-add-names';
import type { SyncData } from '../api/sync-types';
import { looksLikeDate } from './looks-like-date';
import { inboxId } from './task-selectors';

/**
 * Quick add's line cut into the parts the server's parser will take, for highlighting as the
 * person types. Same rules, in the same order, as the server's parser (sync-engine
 * quick-add.parser.ts): `//` description, `{deadline}`, `#project`, `/section` of that project,
 * `+assignee` of that project, `@labels`, the first `p1`-`p4`/`!!1`-`!!4`, then the longest run of
 * trailing words that is a date (keeping one word of content). Names are matched against the
 * synced projects, sections and collaborators by the parser's own matcher (shared-quick-add-names); only dates are approximated (looks-like-date.ts).
 */
export type PartKind = 'text' | 'description' | 'deadline' | 'project' | 'section' | 'assignee' | 'label' | 'priority' | 'date';

export interface LinePart {
  kind: PartKind;
  text: string;
}

interface Span {
  kind: Exclude<PartKind, 'text'>;
  start: number;
  end: number;
  /** What the part stands for: the project's name as synced, the label, the date words. */
  value: string;
}

export interface QuickAddNames {
  projects: Named[];
  sections: (Named & { projectId: string })[];
  people: (Named & { projectId: string })[];
  inboxId: string;
}

/** The names quick add resolves, from the synced state (collaborators by full name, first name, email). */
export function quickAddNames(data: SyncData): QuickAddNames {
  const people: QuickAddNames['people'] = [];
  for (const state of data.collaborator_states.values()) {
    const person = data.collaborators.get(state.user_id);
    if (!person || state.state !== 'active') continue;
    const fullName = person.full_name ?? '';
    for (const name of [fullName, fullName.split(' ')[0] ?? '', person.email ?? '']) if (name) people.push({ id: person.id, name, projectId: state.project_id });
  }
  return {
    projects: [...data.projects.values()].filter((project) => !project.is_archived).map(({ id, name }) => ({ id, name })),
    sections: [...data.sections.values()].map(({ id, name, project_id }) => ({ id, name, projectId: project_id })),
    people,
    inboxId: inboxId(data) ?? '',
  };
}

/** Parts taken are blanked out of the working copy (same length, so positions stay those of the line). */
const blank = (text: string, start: number, end: number) => text.slice(0, start) + ' '.repeat(end - start) + text.slice(end);

function takeNamed<T extends Named>(work: string, marker: string, candidates: readonly T[], kind: Span['kind'], spans: Span[]): [T | null, string] {
  const match = findNamed(work, marker, candidates);
  if (!match) return [null, work];
  spans.push({ kind, start: match.start, end: match.end, value: match.found.name });
  return [match.found, blank(work, match.start, match.end)];
}

/** The spans of a line, in the parser's order of taking (not of position). */
export function quickAddSpans(line: string, names: QuickAddNames, isDate: (text: string) => boolean = looksLikeDate): Span[] {
  const spans: Span[] = [];
  let work = line;
  const slashes = /(^|\s)\/\/(.*)$/s.exec(work);
  if (slashes) {
    const start = slashes.index + (slashes[1]?.length ?? 0);
    spans.push({ kind: 'description', start, end: line.length, value: slashes[2]?.trim() ?? '' });
    work = blank(work, start, line.length);
  }
  for (const brace of work.matchAll(/\{([^{}]*)\}/g)) {
    const expr = (brace[1] ?? '').replace(/\s+/g, ' ').trim();
    if (expr && isDate(expr)) {
      spans.push({ kind: 'deadline', start: brace.index, end: brace.index + brace[0].length, value: expr });
      work = blank(work, brace.index, brace.index + brace[0].length);
      break;
    }
  }
  const [project, afterProject] = takeNamed(work, '#', names.projects, 'project', spans);
  const projectId = project?.id ?? names.inboxId;
  const [, afterSection] = takeNamed(afterProject, '/', names.sections.filter((section) => section.projectId === projectId), 'section', spans);
  [, work] = takeNamed(afterSection, '+', names.people.filter((person) => person.projectId === projectId), 'assignee', spans);
  for (const label of work.matchAll(/(^|\s)@(?:"([^"]+)"|([^\s@#"]+))/g)) {
    const start = label.index + (label[1]?.length ?? 0);
    spans.push({ kind: 'label', start, end: label.index + label[0].length, value: (label[2] ?? label[3] ?? '').trim() });
  }
  for (const span of spans) if (span.kind === 'label') work = blank(work, span.start, span.end);
  const priority = /(^|\s)((?:[pP]|!!)([1-4]))(?=\s|$)/.exec(work);
  if (priority) {
    const start = priority.index + (priority[1]?.length ?? 0);
    spans.push({ kind: 'priority', start, end: start + (priority[2]?.length ?? 0), value: `Priority ${priority[3]}` });
    work = blank(work, start, start + (priority[2]?.length ?? 0));
  }
  const words = [...work.matchAll(/\S+/g)].map((word) => ({ text: word[0], start: word.index, end: word.index + word[0].length }));
  for (let from = 1; from < words.length; from++) {
    const phrase = words
      .slice(from)
      .map((word) => word.text)
      .join(' ');
    if (isDate(phrase)) {
      spans.push({ kind: 'date', start: words[from].start, end: words[words.length - 1].end, value: phrase });
      break;
    }
  }
  return spans;
}

/** The line as consecutive parts (plain text between the taken ones), for drawing it highlighted. */
export function quickAddParts(line: string, spans: readonly Span[]): LinePart[] {
  const parts: LinePart[] = [];
  let at = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start)) {
    if (span.start > at) parts.push({ kind: 'text', text: line.slice(at, span.start) });
    parts.push({ kind: span.kind, text: line.slice(span.start, span.end) });
    at = span.end;
  }
  if (at < line.length) parts.push({ kind: 'text', text: line.slice(at) });
  return parts;
}

const SAID: Record<Span['kind'], string> = {
  date: 'Due',
  deadline: 'Deadline',
  project: 'Project',
  section: 'Section',
  assignee: 'Assigned to',
  label: 'Label',
  priority: 'Priority',
  description: 'Description',
};

/** One sentence for the polite live region: what the server will take from the line. */
export function quickAddSummary(spans: readonly Span[]): string {
  return [...spans]
    .sort((a, b) => a.start - b.start)
    .map((span) => (span.kind === 'priority' ? span.value : `${SAID[span.kind]}: ${span.value}`))
    .join('. ');
}
