import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { updateVersioned } from '../persistence/versioned-update';
import { type JsonArrayText, jsonArrayText } from '../persistence/json-array-text';
import { compareListOrder, type ListPlace } from './list-order';
import type { ObjectJsonSql } from '../persistence/row-json';
import { LIVE_COMMENT_COUNTS } from '../notes/note.repository';
import { type TASK_ADD_ARGS, TASK_FIELDS, type TASK_UPDATE_ARGS } from '@doable/contracts-sync';
import { ITEM_COLUMNS, ITEM_WIRE_COLUMNS, type Item, type WireItem } from './item.model';
import { itemInsert, itemInsertAll, jsonColumns } from './item-writes';
import { asLeftTombstones, changedSinceCondition, changedSinceParams, type MembershipChanges, inVisibleProjects, NO_MEMBERSHIP_CHANGES, VISIBLE_PROJECTS } from '../membership/membership';

/** item_add's arguments that are task fields (the table's `args.add` lines). */
type AddedField = keyof typeof TASK_ADD_ARGS;

/**
 * The row item_add writes: each field it takes as an argument (from the task table), and who
 * adds it. A child_order of null puts the task after its last sibling.
 */
export type NewItem = { readonly user_id: string } & { readonly [F in AddedField]: F extends 'child_order' ? number | null : Item[F] };

/** Columns a command may change directly: item_update's arguments (from the task table) and a task's place; everything else follows from state changes. */
export type ItemChanges = Partial<{ [F in keyof typeof TASK_UPDATE_ARGS | 'project_id' | 'section_id' | 'parent_id' | 'child_order']: Item[F] }>;

/** The task table's writes, derived once at load. */
const INSERT = itemInsert(TASK_FIELDS);
const INSERT_ALL = itemInsertAll(TASK_FIELDS);
const JSON_COLUMNS = jsonColumns(TASK_FIELDS);

/** A full sync's tasks: every active one in a project the user can see, in tree order (completed tasks in history are not part of it). */
const ACTIVE_FOR_FULL_SYNC = `FROM sync.items WHERE ${inVisibleProjects('project_id')} AND NOT is_deleted AND NOT in_history ORDER BY project_id, child_order, id`;

/** A task's place in its project's tree. */
export interface ItemPlace {
  readonly id: string;
  readonly project_id: string;
  readonly section_id: string | null;
  readonly parent_id: string | null;
  readonly child_order: number;
}

/** A project's open tasks with whose plan caps them (ItemRepository.openTaskCounts). */
export interface OpenTaskCount {
  readonly project_id: string;
  readonly owner_id: string;
  /** Someone besides the owner is an active member: their requests add to it too. */
  readonly shared: boolean;
  /** A workspace project's workspace, whose plan caps its tasks (null: the owner's plan). */
  readonly workspace_id: string | null;
  readonly open: number;
}

/** Tasks in the projects a user can see. Every method runs on the caller's transaction. */
@Injectable()
export class ItemRepository {
  /** Inserts the task if its project is one the user can see (and not deleted); undefined if not. One statement (itemInsert). */
  async insertIfVisible(manager: EntityManager, item: NewItem, version: string): Promise<Item | undefined> {
    const rows = await manager.query<Item[]>(INSERT.sql, INSERT.values(item, version));
    return rows[0];
  }

  /**
   * Inserts top-level tasks (no section, no parent, no child_order given) in one statement, as
   * insertIfVisible would one after another (itemInsertAll). Answers each task, or undefined for
   * one not inserted (its project not visible, or deleted), in the order given.
   */
  async insertAllIfVisible(manager: EntityManager, items: readonly NewItem[], version: string): Promise<Array<Item | undefined>> {
    if (items.some((item) => item.section_id !== null || item.parent_id !== null || item.child_order !== null)) {
      throw new Error('insertAllIfVisible takes top-level tasks with no child_order');
    }
    const rows = await manager.query<Array<Item & { n: string }>>(INSERT_ALL.sql, INSERT_ALL.values(items, version));
    const byPosition = new Map(rows.map(({ n, ...item }) => [Number(n), item]));
    return items.map((_, index) => byPosition.get(index + 1));
  }

  /** A visible, not deleted task, locked for the rest of the transaction. */
  async findVisibleForUpdate(manager: EntityManager, userId: string, itemId: string): Promise<Item | undefined> {
    const rows = await manager.query<Item[]>(
      `SELECT ${ITEM_COLUMNS} FROM sync.items WHERE id = $2 AND NOT is_deleted AND project_id IN (${VISIBLE_PROJECTS}) FOR UPDATE`,
      [userId, itemId],
    );
    return rows[0];
  }

  async update(manager: EntityManager, itemId: string, changes: ItemChanges, version: string): Promise<Item> {
    const [row] = await updateVersioned<Item>(manager, 'sync.items', [itemId], changes, version, { jsonColumns: JSON_COLUMNS, returning: ITEM_COLUMNS });
    return row;
  }

  /** The task and all its descendants (not deleted), the task first. */
  async subtree(manager: EntityManager, itemId: string): Promise<Item[]> {
    return manager.query<Item[]>(
      `WITH RECURSIVE tree AS (
         SELECT id, 0 AS depth FROM sync.items WHERE id = $1
         UNION ALL
         SELECT child.id, tree.depth + 1 FROM sync.items child JOIN tree ON child.parent_id = tree.id WHERE NOT child.is_deleted
       )
       SELECT ${ITEM_COLUMNS} FROM sync.items JOIN tree USING (id) ORDER BY tree.depth, child_order, id`,
      [itemId],
    );
  }

  /** The task's ancestors, nearest first. */
  async ancestors(manager: EntityManager, itemId: string): Promise<Item[]> {
    return manager.query<Item[]>(
      `WITH RECURSIVE up AS (
         SELECT parent_id AS id, 1 AS depth FROM sync.items WHERE id = $1 AND parent_id IS NOT NULL
         UNION ALL
         SELECT item.parent_id, up.depth + 1 FROM sync.items item JOIN up ON item.id = up.id WHERE item.parent_id IS NOT NULL
       )
       SELECT ${ITEM_COLUMNS} FROM sync.items JOIN up USING (id) ORDER BY up.depth`,
      [itemId],
    );
  }

  /** Applies one state change to many tasks at once (a subtree completing, a project's tasks deleted...). */
  async setState(
    manager: EntityManager,
    itemIds: readonly string[],
    state: Partial<{ checked: boolean; in_history: boolean; is_deleted: boolean; completed_at: Date | null; project_id: string; section_id: string | null }>,
    version: string,
  ): Promise<void> {
    await updateVersioned(manager, 'sync.items', itemIds, state, version);
  }

  /**
   * Tasks that moved into a project: those assigned to someone who is not an active member of it
   * are unassigned (one statement). Answers the ids unassigned.
   */
  async unassignNonMembers(manager: EntityManager, itemIds: readonly string[], projectId: string, version: string): Promise<string[]> {
    if (itemIds.length === 0) return [];
    const [rows] = await manager.query<[Array<{ id: string }>, number]>(
      `UPDATE sync.items SET responsible_uid = NULL, assigned_by_uid = NULL, version = $3, updated_at = now()
        WHERE id = ANY($1::bigint[]) AND responsible_uid IS NOT NULL
          AND responsible_uid NOT IN (SELECT user_id FROM sync.project_members WHERE project_id = $2 AND state = 'active')
        RETURNING id::text`,
      [itemIds, projectId, version],
    );
    return rows.map((row) => row.id);
  }

  /** Ids of the tasks (not deleted) of some sections; with `activeOnly`, only those not completed into history. */
  async idsInSections(manager: EntityManager, sectionIds: readonly string[], activeOnly = false): Promise<string[]> {
    const rows = await manager.query<Array<{ id: string }>>(
      `SELECT id::text FROM sync.items WHERE section_id = ANY($1::bigint[]) AND NOT is_deleted${activeOnly ? ' AND NOT in_history' : ''}`,
      [sectionIds],
    );
    return rows.map((row) => row.id);
  }

  /** Ids of the tasks of some projects (not deleted), for cascades such as a project deleted. */
  async idsInProjects(manager: EntityManager, projectIds: readonly string[]): Promise<string[]> {
    const rows = await manager.query<Array<{ id: string }>>(`SELECT id::text FROM sync.items WHERE project_id = ANY($1::bigint[]) AND NOT is_deleted`, [projectIds]);
    return rows.map((row) => row.id);
  }

  /**
   * What max_tasks is checked with, for some projects (not deleted): each one's open tasks (not
   * completed, not deleted; subtasks included), its owner (whose plan caps it) and whether anyone
   * else is an active member (then others write to it too). One statement for all of them.
   */
  async openTaskCounts(manager: EntityManager, projectIds: readonly string[]): Promise<OpenTaskCount[]> {
    return manager.query<OpenTaskCount[]>(
      `SELECT project.id::text AS project_id, project.owner_id::text AS owner_id, project.workspace_id::text AS workspace_id,
              EXISTS (SELECT 1 FROM sync.project_members other
                       WHERE other.project_id = project.id AND other.state = 'active' AND other.user_id <> project.owner_id) AS shared,
              (SELECT count(*)::int FROM sync.items
                WHERE project_id = project.id AND NOT checked AND NOT is_deleted AND NOT in_history) AS open
         FROM sync.projects project
        WHERE project.id = ANY($1::bigint[]) AND NOT project.is_deleted
        ORDER BY project.id`,
      [projectIds],
    );
  }

  /** A project's open tasks (not completed, not deleted; subtasks included): what max_tasks counts. */
  async countOpenInProject(manager: EntityManager, projectId: string): Promise<number> {
    const [{ open }] = await manager.query<Array<{ open: number }>>(
      `SELECT count(*)::int AS open FROM sync.items WHERE project_id = $1 AND NOT checked AND NOT is_deleted AND NOT in_history`,
      [projectId],
    );
    return open;
  }

  /** A section's open tasks: what moving it takes into another project's max_tasks. */
  async countOpenInSection(manager: EntityManager, sectionId: string): Promise<number> {
    const [{ open }] = await manager.query<Array<{ open: number }>>(
      `SELECT count(*)::int AS open FROM sync.items WHERE section_id = $1 AND NOT checked AND NOT is_deleted AND NOT in_history`,
      [sectionId],
    );
    return open;
  }

  async nextChildOrder(manager: EntityManager, projectId: string, parentId: string | null): Promise<number> {
    const [{ next }] = await manager.query<Array<{ next: number }>>(
      `SELECT COALESCE(max(child_order), 0) + 1 AS next FROM sync.items
        WHERE project_id = $1 AND parent_id IS NOT DISTINCT FROM $2::bigint AND NOT is_deleted AND NOT in_history`,
      [projectId, parentId],
    );
    return next;
  }

  /**
   * Where each active task of some projects sits in its project's tree (the old generations' flat
   * list is drawn from these): one query for all the projects. With `forUpdate` the rows are
   * locked, for a command that re-places them from flat positions.
   */
  async listPlaces(manager: EntityManager, projectIds: readonly string[], forUpdate = false): Promise<ItemPlace[]> {
    if (projectIds.length === 0) return [];
    return manager.query<ItemPlace[]>(
      `SELECT id::text, project_id::text, section_id::text, parent_id::text, child_order FROM sync.items
        WHERE project_id = ANY($1::bigint[]) AND NOT is_deleted AND NOT in_history ORDER BY project_id, child_order, id${forUpdate ? ' FOR UPDATE' : ''}`,
      [projectIds],
    );
  }

  /** Active tasks of some projects the user can see, whole (an old generation's incremental read flattens their trees). */
  async listActiveInProjects(manager: EntityManager, userId: string, projectIds: readonly string[]): Promise<Item[]> {
    if (projectIds.length === 0) return [];
    return manager.query<Item[]>(
      `SELECT ${ITEM_COLUMNS} FROM sync.items WHERE project_id IN (${VISIBLE_PROJECTS}) AND project_id = ANY($2::bigint[]) AND NOT is_deleted AND NOT in_history
        ORDER BY project_id, child_order, id`,
      [userId, projectIds],
    );
  }

  /** Active tasks for a full sync (completed tasks in history are not part of it). */
  async listActive(manager: EntityManager, userId: string): Promise<Item[]> {
    return manager.query<Item[]>(`SELECT ${ITEM_COLUMNS} ${ACTIVE_FOR_FULL_SYNC}`, [userId]);
  }

  /**
   * listActive with the timestamps as wire text (ITEM_WIRE_COLUMNS), for the Sync API's full
   * sync, which only writes the tasks out: on a 5,000-task account that is 15,000 Dates the pg
   * driver does not parse and the writers do not format back.
   */
  async listActiveWire(manager: EntityManager, userId: string): Promise<WireItem[]> {
    return manager.query<WireItem[]>(`SELECT ${ITEM_WIRE_COLUMNS} ${ACTIVE_FOR_FULL_SYNC}`, [userId]);
  }

  /**
   * listActiveWire as a full sync writes it (issue #48, bench S3): the `items` array, each task
   * written by PostgreSQL by `task` (a dialect's writer in SQL) with its live comments counted as
   * ItemSource counts them, read unordered and put in the lists' order here (compareListOrder says
   * why), joined (jsonArrayText says why here and not by string_agg); and `day_orders`, the object
   * JavaScript's Object.fromEntries makes of the same tasks. Undefined when a task could not be
   * written so (the caller reads the rows instead).
   */
  async listActiveJson(manager: EntityManager, userId: string, task: ObjectJsonSql): Promise<{ items: JsonArrayText; day_orders: string } | undefined> {
    const object = task({ alias: 'item', computed: { note_count: { sql: 'counts.note_count', type: 'integer' } } });
    const rows = await manager.query<Array<ListPlace & { day_order: number; task: string | null }>>(
      `SELECT item.project_id::text AS project_id, item.child_order, item.id::text AS id, item.day_order, ${object} AS task
         FROM sync.items AS item LEFT JOIN (${LIVE_COMMENT_COUNTS}) AS counts ON counts.item_id = item.id
        WHERE ${inVisibleProjects('item.project_id')} AND NOT item.is_deleted AND NOT item.in_history`,
      [userId],
    );
    rows.sort(compareListOrder);
    const items = jsonArrayText(rows.map((row) => row.task));
    if (items === undefined) return undefined;
    // Insertion in tree order: JavaScript itself puts the ids that are array indices first.
    const dayOrders: Record<string, number> = {};
    for (const row of rows) if (row.day_order >= 0) dayOrders[row.id] = row.day_order;
    return { items, day_orders: JSON.stringify(dayOrders) };
  }

  /**
   * Everything that changed after a version, deletions and completions included; with the active
   * tasks of projects joined since (as a full sync has them) and tombstones for every task of
   * projects left since. Without membership changes, the one indexed query it always was.
   */
  async listChangedSince(manager: EntityManager, userId: string, version: string, memberships: MembershipChanges = NO_MEMBERSHIP_CHANGES): Promise<Item[]> {
    const rows = await manager.query<Item[]>(
      `SELECT ${ITEM_COLUMNS} FROM sync.items WHERE ${changedSinceCondition(memberships, 'NOT is_deleted AND NOT in_history')} ORDER BY id`,
      changedSinceParams(userId, version, memberships),
    );
    return asLeftTombstones(rows, memberships.left);
  }


  /**
   * A collaborator left the project or was removed: their tasks in it (not deleted) are nobody's
   * any more. Answers the ids of the tasks changed.
   */
  async unassignInProject(manager: EntityManager, projectId: string, userId: string, version: string): Promise<string[]> {
    const [rows] = await manager.query<[Array<{ id: string }>, number]>(
      `UPDATE sync.items SET responsible_uid = NULL, assigned_by_uid = NULL, version = $3, updated_at = now()
        WHERE project_id = $1 AND responsible_uid = $2 AND NOT is_deleted RETURNING id::text`,
      [projectId, userId, version],
    );
    return rows.map((row) => row.id);
  }
}
