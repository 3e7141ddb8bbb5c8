import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { updateVersioned } from '../persistence/versioned-update';
import { ITEM_COLUMNS, ITEM_WIRE_COLUMNS, type Item, type WireItem } from './item.model';
import { asLeftTombstones, changedSinceCondition, changedSinceParams, type MembershipChanges, NO_MEMBERSHIP_CHANGES, VISIBLE_PROJECTS } from '../membership/membership';

export interface NewItem {
  readonly userId: string;
  readonly projectId: string;
  readonly sectionId: string | null;
  readonly parentId: string | null;
  readonly content: string;
  readonly description: string;
  readonly priority: number;
  readonly due: unknown;
  readonly deadline: unknown;
  readonly duration: unknown;
  readonly labels: readonly string[];
  readonly childOrder: number | null;
  readonly dayOrder: number;
  readonly isCollapsed: boolean;
  readonly assignedByUid: string | null;
  readonly responsibleUid: string | null;
}

/** Columns a command may change directly (everything else follows from state changes). */
export type ItemChanges = Partial<{
  content: string;
  description: string;
  priority: number;
  due: unknown;
  deadline: unknown;
  duration: unknown;
  labels: readonly string[];
  child_order: number;
  day_order: number;
  is_collapsed: boolean;
  assigned_by_uid: string | null;
  responsible_uid: string | null;
  project_id: string;
  section_id: string | null;
  parent_id: string | null;
}>;

const JSON_COLUMNS = new Set(['due', 'deadline', 'duration']);

/** A full sync's tasks: every active one in a project the user can see, in tree order (completed tasks in history are not part of it). */
const ACTIVE_FOR_FULL_SYNC = `FROM sync.items WHERE project_id IN (${VISIBLE_PROJECTS}) AND NOT is_deleted AND NOT in_history ORDER BY project_id, child_order, id`;

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
  /**
   * Inserts the task if its project is one the user can see (and not deleted); undefined if not.
   * One statement: the visibility check, the next child_order and the row itself, so an
   * item_add costs one round trip. It reads exactly what ProjectRepository.findVisible reads,
   * in the same statement as the write. The parameters are cast: INSERT ... SELECT does not
   * take their types from the columns as INSERT ... VALUES does.
   */
  async insertIfVisible(manager: EntityManager, item: NewItem, version: string): Promise<Item | undefined> {
    const rows = await manager.query<Item[]>(
      `INSERT INTO sync.items (user_id, project_id, section_id, parent_id, content, description, priority, due, deadline, duration, labels,
                               child_order, day_order, is_collapsed, added_by_uid, assigned_by_uid, responsible_uid, version)
       SELECT $1::bigint, project.id, $3::bigint, $4::bigint, $5::text, $6::text, $7::smallint, $8::jsonb, $9::jsonb, $10::jsonb, $11::text[],
              COALESCE($12::integer, (SELECT COALESCE(max(child_order), 0) + 1 FROM sync.items
                                       WHERE project_id = project.id AND parent_id IS NOT DISTINCT FROM $4::bigint AND NOT is_deleted AND NOT in_history)),
              $13::integer, $14::boolean, $1::bigint, $15::bigint, $16::bigint, $17::bigint
         FROM sync.projects project
        WHERE project.id = $2::bigint AND project.id IN (${VISIBLE_PROJECTS}) AND NOT project.is_deleted
       RETURNING ${ITEM_COLUMNS}`,
      [
        item.userId,
        item.projectId,
        item.sectionId,
        item.parentId,
        item.content,
        item.description,
        item.priority,
        item.due === null ? null : JSON.stringify(item.due),
        item.deadline === null ? null : JSON.stringify(item.deadline),
        item.duration === null ? null : JSON.stringify(item.duration),
        item.labels,
        item.childOrder,
        item.dayOrder,
        item.isCollapsed,
        item.assignedByUid,
        item.responsibleUid,
        version,
      ],
    );
    return rows[0];
  }

  /**
   * Inserts top-level tasks (no section, no parent, no child_order given) in one statement, as
   * insertIfVisible would one after another: each in order, if its project is visible and not
   * deleted, each after the last task of its project (the k-th of a project gets the project's
   * max child_order + k: the statement's subquery sees the table as it was before it). Answers
   * each task, or undefined for one not inserted, in the order given. The ids are taken from
   * the column's sequence in that order first, which is how each row is found again.
   * Labels travel as JSON: an array of arrays cannot be unnested into rows of arrays.
   */
  async insertAllIfVisible(manager: EntityManager, items: readonly NewItem[], version: string): Promise<Array<Item | undefined>> {
    if (items.some((item) => item.sectionId !== null || item.parentId !== null || item.childOrder !== null)) {
      throw new Error('insertAllIfVisible takes top-level tasks with no child_order');
    }
    const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
    const rows = await manager.query<Array<Item & { n: string }>>(
      `WITH input AS (
         SELECT nextval(pg_get_serial_sequence('sync.items', 'id')) AS id, given.*
           FROM unnest($2::bigint[], $3::text[], $4::text[], $5::smallint[], $6::jsonb[], $7::jsonb[], $8::jsonb[], $9::jsonb[],
                       $10::integer[], $11::boolean[], $12::bigint[], $13::bigint[])
                WITH ORDINALITY AS given(project_id, content, description, priority, due, deadline, duration, labels,
                                       day_order, is_collapsed, assigned_by_uid, responsible_uid, n)
       ),
       written AS (
         INSERT INTO sync.items (id, user_id, project_id, content, description, priority, due, deadline, duration, labels,
                                 child_order, day_order, is_collapsed, added_by_uid, assigned_by_uid, responsible_uid, version)
         SELECT input.id, $1::bigint, input.project_id, input.content, input.description, input.priority, input.due, input.deadline, input.duration,
                ARRAY(SELECT jsonb_array_elements_text(input.labels)),
                (SELECT COALESCE(max(child_order), 0) FROM sync.items
                  WHERE project_id = input.project_id AND parent_id IS NULL AND NOT is_deleted AND NOT in_history)
                  + row_number() OVER (PARTITION BY input.project_id ORDER BY input.n),
                input.day_order, input.is_collapsed, $1::bigint, input.assigned_by_uid, input.responsible_uid, $14::bigint
           FROM input JOIN sync.projects project ON project.id = input.project_id
          WHERE project.id IN (${VISIBLE_PROJECTS}) AND NOT project.is_deleted
          ORDER BY input.n
         RETURNING ${ITEM_COLUMNS}
       )
       SELECT input.n::text AS n, written.* FROM written JOIN input ON input.id::text = written.id`,
      [
        items[0]?.userId,
        items.map((item) => item.projectId),
        items.map((item) => item.content),
        items.map((item) => item.description),
        items.map((item) => item.priority),
        items.map((item) => json(item.due)),
        items.map((item) => json(item.deadline)),
        items.map((item) => json(item.duration)),
        items.map((item) => JSON.stringify(item.labels)),
        items.map((item) => item.dayOrder),
        items.map((item) => item.isCollapsed),
        items.map((item) => item.assignedByUid),
        items.map((item) => item.responsibleUid),
        version,
      ],
    );
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
