import { compareIdTexts } from './list-order';
/**
 * Sync v7 and the first generation kept a project's tasks as one flat list: `item_order`
 * (position) and `indent` (1 = top level, at most 4). The domain keeps a tree (`parent_id`,
 * `child_order` among siblings). These functions translate between the two, both ways, without
 * touching storage. It sits with the tasks (not in dialects/legacy, which re-exports it) because
 * the domain's flat-position commands (engine/commands/items/item-flat-place.command.ts) place
 * tasks by it inside their transaction, and the engine may not import a dialect.
 */

/** The part of a task that places it in its project's tree. */
export interface TreeTask {
  readonly id: string;
  readonly parent_id: string | null;
  readonly child_order: number;
}

/** Where a task shows in the old flat list. */
export interface FlatPlace {
  /** 1-based position in depth-first order. */
  readonly item_order: number;
  /** 1 + depth, capped at MAX_INDENT. */
  readonly indent: number;
}

/** A row of the old flat list. */
export interface FlatRow extends FlatPlace {
  readonly id: string;
}

/** Where a task goes in the domain's tree. */
export interface TreePlace {
  readonly id: string;
  readonly parent_id: string | null;
  readonly child_order: number;
}

/** The old clients drew at most four levels (v7 docs: "a number between 1 and 4"). */
export const MAX_INDENT = 4;

function bySiblingOrder(a: TreeTask, b: TreeTask): number {
  return a.child_order - b.child_order || compareIdTexts(a.id, b.id);
}

/**
 * The flat list of one project's tasks: each task's `item_order` (its 1-based position when the
 * tree is walked depth first, siblings by child_order then id) and `indent` (1 + depth).
 * A task whose parent is not among `tasks` (completed, or in another project) is shown at the
 * top level, as old Todoist showed a subtask whose parent it did not send. Depths beyond four
 * are shown at indent 4: an old client has no deeper level to draw (so such trees do not round
 * trip; the domain never made them through these dialects). A parent cycle (not possible in
 * the domain, tolerated here) is broken where it is found.
 */
export function flattenTaskTree(tasks: readonly TreeTask[]): Map<string, FlatPlace> {
  const ids = new Set(tasks.map((task) => task.id));
  const children = new Map<string | null, TreeTask[]>();
  for (const task of tasks) {
    const parent = task.parent_id !== null && ids.has(task.parent_id) && task.parent_id !== task.id ? task.parent_id : null;
    const list = children.get(parent) ?? [];
    list.push(task);
    children.set(parent, list);
  }
  for (const list of children.values()) list.sort(bySiblingOrder);
  const places = new Map<string, FlatPlace>();
  // An explicit stack: a deep (or hostile) tree cannot overflow the call stack.
  const stack: Array<{ task: TreeTask; depth: number }> = [...(children.get(null) ?? [])].reverse().map((task) => ({ task, depth: 0 }));
  while (stack.length > 0) {
    const { task, depth } = stack.pop()!;
    if (places.has(task.id)) continue;
    places.set(task.id, { item_order: places.size + 1, indent: Math.min(depth + 1, MAX_INDENT) });
    const kids = children.get(task.id) ?? [];
    for (let index = kids.length - 1; index >= 0; index--) stack.push({ task: kids[index], depth: depth + 1 });
  }
  // Tasks only reachable through a cycle: shown at the top level, after the rest (looked for,
  // with a second sort of every task, only when the walk missed one).
  if (places.size === ids.size) return places;
  for (const task of [...tasks].sort(bySiblingOrder)) {
    if (!places.has(task.id)) places.set(task.id, { item_order: places.size + 1, indent: 1 });
  }
  return places;
}

/** An indent as the old server took it: at least 1, at most one deeper than the row above, at most MAX_INDENT. */
export function clampIndent(indent: number, previousIndent: number): number {
  const whole = Number.isFinite(indent) ? Math.trunc(indent) : 1;
  return Math.max(1, Math.min(whole, previousIndent + 1, MAX_INDENT));
}

/**
 * The tree a flat list describes: rows in `item_order` order (ties by id), each row's parent the
 * nearest row above it with a smaller indent, `child_order` its 1-based position among its
 * siblings. Indents are clamped (clampIndent): the first row is top level, and a row indented
 * more than one deeper than the row above it is one deeper.
 */
export function treeFromFlatRows(rows: readonly FlatRow[]): TreePlace[] {
  const sorted = [...rows].sort((a, b) => a.item_order - b.item_order || compareIdTexts(a.id, b.id));
  return placeSorted(sorted);
}

function placeSorted(sorted: readonly FlatRow[]): TreePlace[] {
  const places: TreePlace[] = [];
  /** ancestors[d] = the last row seen at depth d (indent d + 1). */
  const ancestors: string[] = [];
  const childCount = new Map<string | null, number>();
  let previousIndent = 0;
  for (const row of sorted) {
    const indent = clampIndent(row.indent, previousIndent);
    const parent = indent === 1 ? null : ancestors[indent - 2];
    const order = (childCount.get(parent) ?? 0) + 1;
    childCount.set(parent, order);
    ancestors[indent - 1] = row.id;
    ancestors.length = indent;
    places.push({ id: row.id, parent_id: parent, child_order: order });
    previousIndent = indent;
  }
  return places;
}

/**
 * The sibling groups of `after` in which some task got a new parent or a new rank, whole: a
 * dialect sends item_move for the tasks with a new parent and item_reorder with every listed
 * task's child_order (1-based within its group), so untouched siblings are renumbered with the
 * moved ones instead of keeping a stale child_order between them. `before` is compared as the
 * flat list showed it (flattenTaskTree), so gaps in stored child_orders are no change.
 * `alsoUnder`: groups listed whole in any case (the new task's: its child_order is a rank too).
 */
function changedGroups(before: readonly TreeTask[], after: readonly TreePlace[], alsoUnder: ReadonlyArray<string | null> = []): TreePlace[] {
  const flat = flattenTaskTree(before);
  const shown = new Map(treeFromFlatRows(before.map((task) => ({ id: task.id, ...flat.get(task.id)! }))).map((place) => [place.id, place]));
  const changedParents = new Set<string | null>(alsoUnder);
  for (const place of after) {
    const was = shown.get(place.id);
    if (was === undefined || was.parent_id !== place.parent_id || was.child_order !== place.child_order) changedParents.add(place.parent_id);
  }
  return after.filter((place) => changedParents.has(place.parent_id));
}

/**
 * v7 `item_update_orders_indents` / first-generation `updateOrders`: `ordersIndents` gives some of
 * a project's tasks a new `[item_order, indent]`; the others keep their current flat place. The
 * list is re-read as a tree, and the tasks whose parent or child_order changes are returned
 * with their whole sibling groups (see changedGroups). Where a given order ties with an untouched task's, the
 * given one goes first: the client asked for that position. Ids not among `tasks` are ignored.
 */
export function applyOrdersIndents(tasks: readonly TreeTask[], ordersIndents: ReadonlyMap<string, readonly [number, number]>): TreePlace[] {
  const current = flattenTaskTree(tasks);
  const rows = tasks.map((task) => {
    const given = ordersIndents.get(task.id);
    const place = current.get(task.id)!;
    return { id: task.id, item_order: given ? given[0] : place.item_order, indent: given ? given[1] : place.indent, given: given !== undefined, was: place.item_order };
  });
  rows.sort((a, b) => a.item_order - b.item_order || Number(b.given) - Number(a.given) || a.was - b.was);
  return changedGroups(tasks, placeSorted(rows));
}

/** Where a new task goes, and the existing tasks it pushes to a new place. */
export interface NewTaskPlacement {
  readonly parent_id: string | null;
  readonly child_order: number;
  /** Existing tasks in the sibling groups the inserted row changed (see changedGroups). */
  readonly changes: TreePlace[];
}

/**
 * v7 `item_add` / first-generation `addItem` with `item_order` and `indent`: the new task is
 * inserted into the project's flat list at `item_order` (1-based; past the end appends; a
 * missing order appends), with `indent` clamped against the row above it. Rows below it keep
 * their indents, so a deeper row right below a new top-level row becomes its child, as in the
 * old flat model. `newId` names the new task where it becomes a parent in `changes`: the temp id
 * of the item_add the dialect sends first (it must not equal an existing task's id).
 */
export function placeNewTask(tasks: readonly TreeTask[], place: { readonly item_order?: number; readonly indent?: number }, newId: string): NewTaskPlacement {
  const current = flattenTaskTree(tasks);
  const existing: FlatRow[] = tasks.map((task) => ({ id: task.id, ...current.get(task.id)! }));
  existing.sort((a, b) => a.item_order - b.item_order);
  const requested = place.item_order === undefined || !Number.isFinite(place.item_order) ? existing.length + 1 : Math.trunc(place.item_order);
  const at = Math.max(0, Math.min(requested - 1, existing.length));
  const NEW = newId;
  const rows = [...existing.slice(0, at), { id: NEW, item_order: at + 1, indent: place.indent ?? 1 }, ...existing.slice(at)];
  const after = placeSorted(rows);
  const mine = after.find((row) => row.id === NEW)!;
  return { parent_id: mine.parent_id, child_order: mine.child_order, changes: changedGroups(tasks, after.filter((row) => row.id !== NEW), [mine.parent_id]) };
}
