import type { ProjectContent } from './template-reads.repository';
import type { CsvPerson, TemplateNote, TemplateTask, TemplateTree } from './todoist-csv';
import type { WireItem } from '@doable/sync-domain';

export interface ExportOptions {
  /**
   * Dates as their words (`tomorrow`, `Dec 1`): what a template meant to be reused wants, read
   * again on import relative to that day. Without it a one-off date is written as its ISO date,
   * so an import lands on the same day. A recurring date is always its words (the recurrence).
   */
  readonly relativeDates: boolean;
}

/** A project's active content as the tree the CSV writes: sections in order, tasks nested under their parents. */
export function templateTreeOf(content: ProjectContent, options: ExportOptions): TemplateTree {
  const personOf = (id: string | null): CsvPerson | null => (id === null ? null : { name: content.names.get(id) ?? '', id });
  const notesOf = new Map<string, TemplateNote[]>();
  const projectNotes: TemplateNote[] = [];
  for (const note of content.notes) {
    const written = { content: note.content, author: personOf(note.posted_uid) };
    if (note.item_id === null) projectNotes.push(written);
    else notesOf.set(note.item_id, [...(notesOf.get(note.item_id) ?? []), written]);
  }
  const childrenOf = new Map<string | null, WireItem[]>();
  const present = new Set(content.tasks.map((task) => task.id));
  for (const task of content.tasks) {
    // A subtask whose parent is not exported (completed) stands at the top of its place.
    const parent = task.parent_id !== null && present.has(task.parent_id) ? task.parent_id : null;
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), task]);
  }
  const toTask = (task: WireItem): TemplateTask => ({
    content: task.content,
    description: task.description,
    priority: task.priority,
    labels: task.labels,
    author: personOf(task.added_by_uid),
    responsible: personOf(task.responsible_uid),
    date: task.due ? (task.due.is_recurring || options.relativeDates ? task.due.string : task.due.date) : null,
    dateLang: task.due?.lang ?? null,
    timezone: task.due?.timezone ?? null,
    duration: task.duration,
    deadline: task.deadline?.date ?? null,
    deadlineLang: task.deadline?.lang ?? null,
    notes: notesOf.get(task.id) ?? [],
    children: (childrenOf.get(task.id) ?? []).map(toTask),
  });
  const topLevel = childrenOf.get(null) ?? [];
  return {
    meta: { view_style: content.project.view_style },
    notes: projectNotes,
    tasks: topLevel.filter((task) => task.section_id === null).map(toTask),
    sections: content.sections.map((section) => ({ name: section.name, tasks: topLevel.filter((task) => task.section_id === section.id).map(toTask) })),
  };
}
