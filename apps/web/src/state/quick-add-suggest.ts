import type { SyncData } from '../api/sync-types';
import { projectPeople } from './task-selectors';

/** The kinds of name quick add reads, by the sign that starts them. */
export type SuggestKind = 'project' | 'section' | 'label' | 'assignee';
const SIGNS: Record<string, SuggestKind> = { '#': 'project', '/': 'section', '@': 'label', '+': 'assignee' };

export interface Suggestion {
  kind: SuggestKind;
  /** The name as shown. */
  name: string;
  /** The whole line with the word being typed replaced by this name (and a space after it). */
  line: string;
}

/** Spaces escaped as quick add's parser reads them (`#My\ Project`). */
const escaped = (name: string) => name.replace(/ /g, '\\ ');

/**
 * Names for the word being typed at the end of the line, when it starts with `#`, `/`, `@` or
 * `+`: projects, the sections of the project named earlier in the line (or of the view's), labels,
 * and the people on that project. At most `limit`, those starting with the typed letters first.
 */
export function suggestions(data: SyncData, line: string, viewProjectId?: string, limit = 6): Suggestion[] {
  const match = /(^|\s)([#/@+])((?:[^\s\\]|\\ )*)$/.exec(line);
  if (!match) return [];
  const kind = SIGNS[match[2]];
  const typed = match[3].replace(/\\ /g, ' ').toLowerCase();
  const before = line.slice(0, line.length - match[2].length - match[3].length);
  const projects = [...data.projects.values()].filter((project) => !project.is_archived && !project.is_deleted);
  // The project named earlier in the line, else the view's: sections and people are that project's.
  const named = /(?:^|\s)#((?:[^\s\\]|\\ )+)/.exec(before)?.[1]?.replace(/\\ /g, ' ').toLowerCase();
  const projectId = (named ? projects.find((project) => project.name.toLowerCase() === named)?.id : undefined) ?? viewProjectId ?? data.user?.inbox_project_id;
  let names: string[];
  switch (kind) {
    case 'project':
      names = projects.map((project) => project.name);
      break;
    case 'section':
      names = [...data.sections.values()].filter((section) => section.project_id === projectId && !section.is_archived && !section.is_deleted).map((section) => section.name);
      break;
    case 'label':
      names = [...data.labels.values()].filter((label) => !label.is_deleted).map((label) => label.name);
      break;
    case 'assignee':
      names = projectId ? projectPeople(data, projectId).map((person) => person.full_name ?? person.email ?? '').filter(Boolean) : [];
      break;
  }
  const found = names.filter((name) => name.toLowerCase().includes(typed));
  found.sort((a, b) => Number(!a.toLowerCase().startsWith(typed)) - Number(!b.toLowerCase().startsWith(typed)) || a.localeCompare(b));
  return found.slice(0, limit).map((name) => ({ kind, name, line: `${before}${match[2]}${escaped(name)} ` }));
}
