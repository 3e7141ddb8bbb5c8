import type { Item, ItemRow, LabelRow, ProjectRow } from '@doable/sync-domain';
import { type FlatPlace, firstGenerationDueDate, flag, flattenTaskTree, integerId, legacyLabelColor, legacyProjectColor } from '../legacy';

/**
 * The first generation's objects (public-api-facts §1.8; field values as the v5.3 help shows
 * them): integer ids, 0/1 flags, legacy palette colours, flat `item_order`/`indent`.
 */

export interface FirstGenerationItem {
  id: number;
  user_id: number;
  project_id: number;
  content: string;
  date_string: string;
  due_date: string | null;
  priority: number;
  item_order: number;
  indent: number;
  collapsed: 0 | 1;
  in_history: 0 | 1;
  checked: 0 | 1;
  /** Guess: the old web app faded tasks of a shared project's other members; always 0 here. */
  faded: 0 | 1;
}

export interface FirstGenerationProject {
  id: number;
  user_id: number;
  name: string;
  color: number;
  collapsed: 0 | 1;
  item_order: number;
  indent: number;
  cache_count: number;
}

export interface FirstGenerationLabel {
  id: number;
  uid: number;
  name: string;
  color: number;
}

/** Where a task shows: its place in its project's flat list, or (a completed task, outside the list) its child_order at the top level. */
export type ItemPlaces = ReadonlyMap<string, FlatPlace>;

/** The flat places of the tasks of every project in `uncompleted` (one walk per project). */
export function itemPlaces(uncompleted: readonly Pick<Item, 'id' | 'project_id' | 'parent_id' | 'child_order'>[]): ItemPlaces {
  const byProject = new Map<string, Array<Pick<Item, 'id' | 'parent_id' | 'child_order'>>>();
  for (const item of uncompleted) byProject.set(item.project_id, [...(byProject.get(item.project_id) ?? []), item]);
  const places = new Map<string, FlatPlace>();
  for (const tasks of byProject.values()) for (const [id, place] of flattenTaskTree(tasks)) places.set(id, place);
  return places;
}

/**
 * A task. `user_id` is the owner the first generation showed: the task's creator where known,
 * else the reader (guess: it had one owner per task, the project's). Completed tasks are not in
 * the flat list; they show their child_order at indent 1 (guess).
 */
export function renderItem(item: ItemRow, places: ItemPlaces, userTimezone: string): FirstGenerationItem {
  const place = places.get(item.id);
  return {
    id: integerId(item.id),
    user_id: integerId(item.user_id),
    project_id: integerId(item.project_id),
    content: item.content,
    date_string: item.due?.string ?? '',
    due_date: firstGenerationDueDate(item.due, userTimezone),
    priority: item.priority,
    item_order: place?.item_order ?? item.child_order,
    indent: place?.indent ?? 1,
    collapsed: flag(item.is_collapsed),
    in_history: flag(item.in_history),
    checked: flag(item.checked),
    faded: 0,
  };
}

/** The flat places of a user's projects (the project tree walked like a task tree). */
export function projectPlaces(projects: readonly ProjectRow[]): ReadonlyMap<string, FlatPlace> {
  return flattenTaskTree(projects);
}

/**
 * A project. `cache_count` counts its uncompleted tasks (the help text calls it deprecated and
 * "not updated on any API calls"; a true count costs one grouped query and misleads nobody).
 */
export function renderProject(project: ProjectRow, places: ReadonlyMap<string, FlatPlace>, cacheCount: number): FirstGenerationProject {
  const place = places.get(project.id);
  return {
    id: integerId(project.id),
    user_id: integerId(project.owner_id),
    name: project.name,
    color: legacyProjectColor(project.color),
    collapsed: flag(project.is_collapsed),
    item_order: place?.item_order ?? project.child_order,
    indent: place?.indent ?? 1,
    cache_count: cacheCount,
  };
}

/** A label: pytodoist's `getLabels` answered a map of name -> label; the fields are a guess from the v5.3 Labels resource. */
export function renderLabel(label: LabelRow): FirstGenerationLabel {
  return { id: integerId(label.id), uid: integerId(label.user_id), name: label.name, color: legacyLabelColor(label.color) };
}
