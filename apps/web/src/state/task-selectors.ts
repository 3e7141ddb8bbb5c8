import type { Collaborator, Item, SyncData } from '../api/sync-types';
import { addDays, dueDay } from './dates';

/** A task with its open subtasks, as a project or a day lists them. */
export interface TaskNode {
  item: Item;
  children: TaskNode[];
}

const byOrder = (a: Item, b: Item) => (a.child_order ?? 0) - (b.child_order ?? 0) || a.id.localeCompare(b.id);
const byPriorityThenOrder = (a: Item, b: Item) => b.priority - a.priority || byOrder(a, b);

export function openItems(data: SyncData): Item[] {
  return [...data.items.values()].filter((item) => !item.checked && !item.is_deleted);
}

/** Nests tasks under their parents; a task whose parent is not in the list stands at the top. */
export function tree(items: Item[]): TaskNode[] {
  const nodes = new Map(items.map((item) => [item.id, { item, children: [] as TaskNode[] }]));
  const roots: TaskNode[] = [];
  for (const item of [...items].sort(byOrder)) {
    const node = nodes.get(item.id)!;
    const parent = item.parent_id ? nodes.get(item.parent_id) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

export function inboxId(data: SyncData): string | undefined {
  return data.user?.inbox_project_id ?? [...data.projects.values()].find((project) => project.inbox_project)?.id;
}

export interface ProjectView {
  unsectioned: TaskNode[];
  sections: { id: string; name: string; tasks: TaskNode[] }[];
}

export function projectView(data: SyncData, projectId: string): ProjectView {
  const items = openItems(data).filter((item) => item.project_id === projectId);
  const sections = [...data.sections.values()]
    .filter((section) => section.project_id === projectId && !section.is_archived)
    .sort((a, b) => (a.section_order ?? 0) - (b.section_order ?? 0));
  const known = new Set(sections.map((section) => section.id));
  return {
    unsectioned: tree(items.filter((item) => !item.section_id || !known.has(item.section_id))),
    sections: sections.map((section) => ({ id: section.id, name: section.name, tasks: tree(items.filter((item) => item.section_id === section.id)) })),
  };
}

/** Today's tasks and, apart, the overdue ones (due before today, still open). */
export function todayView(data: SyncData, today: string): { overdue: Item[]; today: Item[] } {
  const overdue: Item[] = [];
  const due: Item[] = [];
  for (const item of openItems(data)) {
    const day = dueDay(item.due);
    if (day === null) continue;
    if (day < today) overdue.push(item);
    else if (day === today) due.push(item);
  }
  return { overdue: overdue.sort(byPriorityThenOrder), today: due.sort(byPriorityThenOrder) };
}

/** The next `days` days from today, each with its tasks (empty days included: it is a calendar). */
export function upcomingView(data: SyncData, today: string, days = 7): { day: string; tasks: Item[] }[] {
  const columns = Array.from({ length: days }, (_, offset) => ({ day: addDays(today, offset), tasks: [] as Item[] }));
  const index = new Map(columns.map((column) => [column.day, column.tasks]));
  for (const item of openItems(data)) {
    const day = dueDay(item.due);
    if (day !== null) index.get(day)?.push(item);
  }
  for (const column of columns) column.tasks.sort(byPriorityThenOrder);
  return columns;
}

export function labelView(data: SyncData, labelName: string): Item[] {
  return openItems(data)
    .filter((item) => item.labels?.includes(labelName))
    .sort(byPriorityThenOrder);
}

/** Search over what the app already holds: every word must appear in the content or description. */
export function searchView(data: SyncData, query: string): Item[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  return openItems(data)
    .filter((item) => {
      const text = `${item.content}\n${item.description ?? ''}`.toLowerCase();
      return words.every((word) => text.includes(word));
    })
    .sort(byPriorityThenOrder);
}

export function notesOf(data: SyncData, itemId: string) {
  return [...data.notes.values()].filter((note) => note.item_id === itemId).sort((a, b) => (a.posted_at ?? '').localeCompare(b.posted_at ?? ''));
}

/** The people on a shared project (active, not only invited): who a task there may be assigned to. */
export function projectPeople(data: SyncData, projectId: string): Collaborator[] {
  const people: Collaborator[] = [];
  for (const state of data.collaborator_states.values()) {
    if (state.project_id !== projectId || state.state !== 'active') continue;
    const person = data.collaborators.get(state.user_id);
    if (person) people.push(person);
  }
  return people.sort((a, b) => (a.full_name ?? '').localeCompare(b.full_name ?? ''));
}

export function unreadNotifications(data: SyncData): number {
  let count = 0;
  for (const notification of data.live_notifications.values()) if (notification.is_unread) count++;
  return count;
}

/**
 * New positions when a task moves one place up (-1) or down (+1) among its siblings (same
 * project, section and parent, open): the siblings renumbered 1..n, as item_reorder takes them.
 * Empty when it is already first or last. The keyboard's way to do what dragging does.
 */
export function reorderSiblings(data: SyncData, item: Item, step: -1 | 1): { id: string; child_order: number }[] {
  const siblings = openItems(data)
    .filter((other) => other.project_id === item.project_id && (other.section_id ?? null) === (item.section_id ?? null) && (other.parent_id ?? null) === (item.parent_id ?? null))
    .sort(byOrder);
  const from = siblings.findIndex((other) => other.id === item.id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= siblings.length) return [];
  [siblings[from], siblings[to]] = [siblings[to], siblings[from]];
  return siblings.map((other, index) => ({ id: other.id, child_order: index + 1 }));
}

/** A task's open sub-tasks, nested, however deep (the task view's list). */
export function subtaskTree(data: SyncData, itemId: string): TaskNode[] {
  const open = openItems(data);
  const under = new Set([itemId]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const item of open) {
      if (item.parent_id && under.has(item.parent_id) && !under.has(item.id)) {
        under.add(item.id);
        grew = true;
      }
    }
  }
  under.delete(itemId);
  return tree(open.filter((item) => under.has(item.id)));
}
