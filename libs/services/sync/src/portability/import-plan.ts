import { COLOR_NAMES as PALETTE, colorNameOf } from '@doable/contracts-sync';
import type { AccountSnapshot, SnapshotDue, SnapshotTask } from './account-snapshot';

/**
 * The commands that rebuild a snapshot in an account, in an order where every reference points
 * back (labels, filters, projects parents first, sections, tasks parents first, comments,
 * reminders, then completions and archivals, which must come after what they close). Objects
 * refer to each other by temp ids `imp:<kind>:<source key>`; the importer turns those into real
 * ids between requests. Pure: the importer runs the plan through the same commands as clients.
 */
export interface PlannedCommand {
  readonly type: string;
  readonly args: Record<string, unknown>;
  /** The temp id of what it creates, when it creates something. */
  readonly temp_id?: string;
}

/** The arguments that name another object of the import (values may be temp ids). */
export const REFERENCE_ARGUMENTS = ['project_id', 'section_id', 'parent_id', 'item_id', 'id'] as const;

export const INBOX_REFERENCE = 'imp:inbox';

export const tempIdOf = (kind: 'project' | 'section' | 'task' | 'note' | 'reminder', key: string): string => `imp:${kind}:${key}`;

const PROJECT_NAME_MAX = 120;
const LABEL_NAME_MAX = 60;

function dueArgument(due: SnapshotDue | null): Record<string, unknown> | undefined {
  if (!due) return undefined;
  const out: Record<string, unknown> = {};
  if (due.date) out['date'] = due.date;
  if (due.string) out['string'] = due.string;
  if (due.timezone && due.date?.includes('T')) out['timezone'] = due.timezone;
  if (due.lang) out['lang'] = due.lang;
  return out;
}

const COLOR_NAMES: ReadonlySet<string> = new Set(PALETTE);

/** A colour the commands take (a name, or a v8 number turned into its name); anything else falls back to the default rather than refusing the object. */
function importedColor(color: string | number | null): string | undefined {
  if (typeof color === 'number') return colorNameOf(color);
  return color !== null && COLOR_NAMES.has(color) ? color : undefined;
}

const defined = (entries: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined && value !== null));

/** Parents before children, then in their sibling order: each task's parent exists when it is added. */
function parentsFirst<T extends { key: string; childOrder: number | null }>(list: readonly T[], parentOf: (item: T) => string | null): T[] {
  const byKey = new Map(list.map((item) => [item.key, item]));
  const depth = new Map<string, number>();
  const depthOf = (item: T, seen = new Set<string>()): number => {
    const known = depth.get(item.key);
    if (known !== undefined) return known;
    const parentKey = parentOf(item);
    const parent = parentKey ? byKey.get(parentKey) : undefined;
    // A cycle in the source (never in a real export) is cut: the task becomes a top-level one.
    const value = parent && !seen.has(parent.key) ? depthOf(parent, seen.add(item.key)) + 1 : 0;
    depth.set(item.key, value);
    return value;
  };
  return [...list].sort((a, b) => depthOf(a) - depthOf(b) || (a.childOrder ?? 0) - (b.childOrder ?? 0));
}

export function planImport(snapshot: AccountSnapshot): PlannedCommand[] {
  const commands: PlannedCommand[] = [];
  const inboxKeys = new Set(snapshot.projects.filter((p) => p.isInbox).map((p) => p.key));
  const projectRef = (key: string) => (inboxKeys.has(key) ? INBOX_REFERENCE : tempIdOf('project', key));
  const taskKeys = new Set(snapshot.tasks.map((t) => t.key));

  for (const label of snapshot.labels) {
    commands.push({ type: 'label_add', args: defined({ name: label.name.slice(0, LABEL_NAME_MAX), color: importedColor(label.color), item_order: label.order, is_favorite: label.isFavorite }) });
  }
  for (const filter of snapshot.filters) {
    commands.push({ type: 'filter_add', args: defined({ name: filter.name, query: filter.query, color: importedColor(filter.color), item_order: filter.order, is_favorite: filter.isFavorite }) });
  }
  const projects = parentsFirst(
    snapshot.projects.filter((p) => !p.isInbox),
    (p) => (p.parentKey && !inboxKeys.has(p.parentKey) ? p.parentKey : null),
  );
  for (const project of projects) {
    commands.push({
      type: 'project_add',
      temp_id: tempIdOf('project', project.key),
      args: defined({
        name: project.name.trim().slice(0, PROJECT_NAME_MAX) || 'Imported project',
        color: importedColor(project.color),
        parent_id: project.parentKey && !inboxKeys.has(project.parentKey) ? tempIdOf('project', project.parentKey) : undefined,
        child_order: project.childOrder,
        view_style: project.viewStyle === 'list' || project.viewStyle === 'board' || project.viewStyle === 'calendar' ? project.viewStyle : undefined,
        is_favorite: project.isFavorite,
        description: project.description ?? undefined,
      }),
    });
  }
  for (const section of [...snapshot.sections].sort((a, b) => (a.order ?? 0) - (b.order ?? 0))) {
    commands.push({ type: 'section_add', temp_id: tempIdOf('section', section.key), args: defined({ name: section.name, project_id: projectRef(section.projectKey), section_order: section.order }) });
  }
  for (const task of parentsFirst(snapshot.tasks, (t) => t.parentKey)) commands.push(taskAdd(task, projectRef));
  for (const note of snapshot.notes) {
    const owner = note.taskKey !== null ? { item_id: tempIdOf('task', note.taskKey) } : { project_id: projectRef(note.projectKey!) };
    commands.push({ type: 'note_add', temp_id: tempIdOf('note', note.key), args: defined({ ...owner, content: note.content, file_attachment: note.fileAttachment ?? undefined }) });
  }
  for (const reminder of snapshot.reminders) {
    if (!taskKeys.has(reminder.taskKey)) continue;
    const location = reminder.location;
    commands.push({
      type: 'reminder_add',
      temp_id: tempIdOf('reminder', reminder.key),
      args: defined({
        item_id: tempIdOf('task', reminder.taskKey),
        type: reminder.type,
        minute_offset: reminder.type === 'relative' ? (reminder.minuteOffset ?? 0) : undefined,
        due: reminder.type === 'absolute' ? dueArgument(reminder.due) : undefined,
        name: location?.name,
        loc_lat: location?.lat,
        loc_long: location?.long,
        loc_trigger: location?.trigger,
        radius: location?.radius ?? undefined,
      }),
    });
  }
  // Completions last, deepest first: completing a parent completes its subtree, and a completed
  // subtask of an open parent stays the only one completed.
  const checked = parentsFirst(
    snapshot.tasks.filter((t) => t.checked),
    (t) => t.parentKey,
  ).reverse();
  const checkedKeys = new Set(checked.map((t) => t.key));
  for (const task of checked) {
    // A subtask of a completed parent goes with its parent.
    if (task.parentKey && checkedKeys.has(task.parentKey)) continue;
    commands.push({ type: 'item_complete', args: defined({ id: tempIdOf('task', task.key), completed_at: task.completedAt ?? undefined }) });
  }
  for (const section of snapshot.sections.filter((s) => s.isArchived)) commands.push({ type: 'section_archive', args: { id: tempIdOf('section', section.key) } });
  // Children before parents: archiving a parent archives its children with it.
  for (const project of projects.filter((p) => p.isArchived).reverse()) {
    if (project.parentKey && projects.some((p) => p.key === project.parentKey && p.isArchived)) continue;
    commands.push({ type: 'project_archive', args: { id: tempIdOf('project', project.key) } });
  }
  return commands;
}

function taskAdd(task: SnapshotTask, projectRef: (key: string) => string): PlannedCommand {
  return {
    type: 'item_add',
    temp_id: tempIdOf('task', task.key),
    args: defined({
      ...task.fields,
      content: task.content,
      description: task.description || undefined,
      project_id: projectRef(task.projectKey),
      section_id: task.sectionKey ? tempIdOf('section', task.sectionKey) : undefined,
      parent_id: task.parentKey ? tempIdOf('task', task.parentKey) : undefined,
      child_order: task.childOrder,
      priority: task.priority,
      labels: task.labels.length > 0 ? task.labels : undefined,
      due: dueArgument(task.due),
      deadline: task.deadline ? defined({ date: task.deadline.date, lang: task.deadline.lang }) : undefined,
      duration: task.duration ?? undefined,
      is_collapsed: task.isCollapsed || undefined,
    }),
  };
}
