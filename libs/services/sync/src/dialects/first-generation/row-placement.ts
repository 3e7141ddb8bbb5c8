import { randomUUID } from 'node:crypto';
import { isObjectId } from '@doable/contracts-common';
import type { SyncCommand } from '../../engine/sync-request';
import { applyOrdersIndents, idArg, placeNewTask, type TreePlace, type TreeTask } from '../legacy';
import type { LegacyCommand } from './legacy-commands';

/**
 * Rows of the old flat list placed in the domain's tree (items/task-tree-order.ts, re-exported by dialects/legacy):
 * an `item_add` with `item_order`/`indent`, and `item_update_orders_indents`
 * (`ids_to_orders_indents` {id: [order, indent]}), become the domain's item_add with
 * parent_id/child_order, item_move and item_reorder. Placement reads the projects' open tasks
 * first (the caller's one query) and follows the batch's own additions as it goes; a project
 * named by a temp id (made in the same batch) starts empty.
 */

/** What a legacy command needs placed, if anything. */
export function placementOf(command: LegacyCommand): { kind: 'add'; projectId: string | undefined } | { kind: 'orders'; ids: string[] } | undefined {
  const args = (command.args ?? {}) as Record<string, unknown>;
  if (command.type === 'item_add' && (args['indent'] !== undefined || args['item_order'] !== undefined)) {
    const project = idArg(args['project_id']);
    return { kind: 'add', projectId: typeof project === 'string' ? project : undefined };
  }
  if (command.type === 'item_update_orders_indents') {
    const map = args['ids_to_orders_indents'];
    return { kind: 'orders', ids: map !== null && typeof map === 'object' ? Object.keys(map).filter(isObjectId) : [] };
  }
  return undefined;
}

/** A whole number from text or a number, else undefined (the old server ignored what it could not read). */
function whole(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : undefined;
}

/** The domain's commands for a set of changed places: moves for a new parent, one reorder for every listed task. */
function changeCommands(changes: readonly TreePlace[], before: ReadonlyMap<string, TreeTask>, projectId: string, baseUuid: string): SyncCommand[] {
  const commands: SyncCommand[] = [];
  changes.forEach((change, index) => {
    const was = before.get(change.id);
    if (was && was.parent_id !== change.parent_id) {
      commands.push({ type: 'item_move', uuid: `${baseUuid}:m${index}`, args: change.parent_id === null ? { id: change.id, project_id: projectId } : { id: change.id, parent_id: change.parent_id } });
    }
  });
  if (changes.length > 0) commands.push({ type: 'item_reorder', uuid: `${baseUuid}:r`, args: { items: changes.map((change) => ({ id: change.id, child_order: change.child_order })) } });
  return commands;
}

/** Changed places applied to a project's in-memory task list. */
function apply(tasks: TreeTask[], changes: readonly TreePlace[]): TreeTask[] {
  const byId = new Map(changes.map((change) => [change.id, change]));
  return tasks.map((task) => byId.get(task.id) ?? task);
}

/**
 * The batch with its placed rows expanded. `tasksByProject`: each involved project's open tasks
 * (by real id); `projectOf`: the project of each task named in an orders map; `inboxId`: where an
 * item_add without project_id goes.
 */
export function expandPlacements(
  legacy: readonly LegacyCommand[],
  commands: readonly SyncCommand[],
  tasksByProject: ReadonlyMap<string, readonly TreeTask[]>,
  projectOf: ReadonlyMap<string, string>,
  inboxId: string,
): SyncCommand[] {
  const lists = new Map<string, TreeTask[]>([...tasksByProject].map(([project, tasks]) => [project, [...tasks]]));
  const listOf = (project: string): TreeTask[] => lists.get(project) ?? [];
  const out: SyncCommand[] = [];
  commands.forEach((command, index) => {
    const source = legacy[index] ?? {};
    const placement = placementOf(source);
    const args = (source.args ?? {}) as Record<string, unknown>;
    if (placement?.kind === 'add') {
      const project = placement.projectId ?? inboxId;
      const tempId = command.temp_id ?? `fg-${randomUUID()}`;
      const tasks = listOf(project);
      const placed = placeNewTask(tasks, { item_order: whole(args['item_order']), indent: whole(args['indent']) }, tempId);
      out.push({ ...command, temp_id: tempId, args: { ...command.args, ...(placed.parent_id === null ? {} : { parent_id: placed.parent_id }), child_order: placed.child_order } });
      out.push(...changeCommands(placed.changes, new Map(tasks.map((task) => [task.id, task])), project, command.uuid));
      lists.set(project, [...apply(tasks, placed.changes), { id: tempId, parent_id: placed.parent_id, child_order: placed.child_order }]);
      return;
    }
    if (placement?.kind === 'orders') {
      const map = args['ids_to_orders_indents'] as Record<string, unknown>;
      const byProject = new Map<string, Map<string, readonly [number, number]>>();
      for (const id of placement.ids) {
        const project = projectOf.get(id);
        const pair = map[id];
        const order = Array.isArray(pair) ? whole(pair[0]) : undefined;
        const indent = Array.isArray(pair) ? whole(pair[1]) : undefined;
        if (project === undefined || order === undefined || indent === undefined) continue;
        byProject.set(project, (byProject.get(project) ?? new Map<string, readonly [number, number]>()).set(id, [order, indent] as const));
      }
      let part = 0;
      for (const [project, wanted] of byProject) {
        const tasks = listOf(project);
        const changes = applyOrdersIndents(tasks, wanted);
        out.push(...changeCommands(changes, new Map(tasks.map((task) => [task.id, task])), project, `${command.uuid}:${part++}`));
        lists.set(project, apply(tasks, changes));
      }
      return;
    }
    out.push(command);
  });
  return out;
}
