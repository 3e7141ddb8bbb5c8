import type { ApiProjectInvitation, ApiProjectPerson, IdMappingObject, Page } from '@doable/contracts-sync';
import { isObjectId } from '@doable/contracts-common';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { inLiveVisibleProjects, inVisibleProjects, ITEM_WIRE_COLUMNS, type Label, LABEL_COLUMNS, type Note, NOTE_COLUMNS, type Project, PROJECT_COLUMNS, PROJECT_ROLE_COLUMN, type Section, SECTION_COLUMNS, VISIBLE_PROJECTS, type WireItem, wireTimestampSql } from '@doable/sync-domain';
import { ListSql, pageOf, searchPattern } from './list-sql';

export interface TaskListFilter {
  readonly ids?: readonly string[];
  readonly projectId?: string;
  readonly sectionId?: string;
  readonly parentId?: string;
  readonly label?: string;
}

export interface Paged<T> {
  readonly rows: T[];
  readonly hasMore: boolean;
}

/**
 * Active tasks: not deleted, not completed, and not in an archived project. The live projects
 * are read once into an array and their tasks taken in one scan (inLiveVisibleProjects): as
 * a join, a list of all tasks scanned every account's (GET /rest/v2/tasks beside a 50,000-task
 * account: 99 ms of PostgreSQL, 8 so), and a page walked the index past other accounts' tasks.
 */
const ACTIVE_TASK = `NOT is_deleted AND NOT in_history AND NOT checked
  AND ${inLiveVisibleProjects('project_id')}`;

/**
 * The active tasks a task list filter selects, as conditions over `sync.items` (bare column
 * names, so the table may be aliased): shared by the rows read here and the REST v2 list
 * PostgreSQL writes as JSON (rest-v2-task-list.sql.ts).
 */
export function taskListSql(userId: string, filter: TaskListFilter): ListSql {
  const sql = new ListSql(userId).where(ACTIVE_TASK);
  if (filter.ids) sql.where(`id = ANY(${sql.value(filter.ids.filter(isObjectId))}::bigint[])`);
  if (filter.projectId !== undefined) sql.where(isObjectId(filter.projectId) ? `project_id = ${sql.value(filter.projectId)}` : 'false');
  if (filter.sectionId !== undefined) sql.where(isObjectId(filter.sectionId) ? `section_id = ${sql.value(filter.sectionId)}` : 'false');
  if (filter.parentId !== undefined) sql.where(isObjectId(filter.parentId) ? `parent_id = ${sql.value(filter.parentId)}` : 'false');
  if (filter.label !== undefined) sql.where(`EXISTS (SELECT 1 FROM unnest(labels) AS name WHERE lower(name) = lower(${sql.value(filter.label)}))`);
  return sql;
}

/**
 * The reads behind the resource-style endpoints: filtered, ordered and paged in SQL, every
 * one bounded by the user's visible projects ($1). Counts come in one grouped query per page.
 */
@Injectable()
export class ObjectReadsRepository {
  async tasks(manager: EntityManager, userId: string, filter: TaskListFilter, page: Page | undefined): Promise<Paged<WireItem>> {
    const sql = taskListSql(userId, filter);
    const rows = await manager.query<WireItem[]>(
      `SELECT ${ITEM_WIRE_COLUMNS} FROM sync.items ${sql.whereClause()} ORDER BY project_id, child_order, id ${sql.limitClause(page)}`,
      sql.params,
    );
    return pageOf(rows, page);
  }

  /** A task the user can see, active or completed (not deleted). */
  async task(manager: EntityManager, userId: string, id: string): Promise<WireItem | undefined> {
    if (!isObjectId(id)) return undefined;
    const rows = await manager.query<WireItem[]>(`SELECT ${ITEM_WIRE_COLUMNS} FROM sync.items WHERE project_id IN (${VISIBLE_PROJECTS}) AND id = $2 AND NOT is_deleted`, [
      userId,
      id,
    ]);
    return rows[0];
  }

  /** Comments on projects themselves (not on their tasks). */
  async projectCommentCounts(manager: EntityManager, projectIds: readonly string[]): Promise<Map<string, number>> {
    if (projectIds.length === 0) return new Map();
    const rows = await manager.query<Array<{ id: string; count: number }>>(
      `SELECT project_id::text AS id, count(*)::int AS count FROM sync.notes
        WHERE project_id = ANY($1::bigint[]) AND item_id IS NULL AND NOT is_deleted GROUP BY project_id`,
      [projectIds],
    );
    return new Map(rows.map((row) => [row.id, row.count]));
  }

  async projects(manager: EntityManager, userId: string, options: { archived?: boolean; search?: string }, page: Page | undefined): Promise<Paged<Project>> {
    const sql = new ListSql(userId).where(`id IN (${VISIBLE_PROJECTS}) AND NOT is_deleted`).where(options.archived ? 'is_archived' : 'NOT is_archived');
    if (options.search !== undefined) sql.where(`name ILIKE ${sql.value(searchPattern(options.search))}`);
    const rows = await manager.query<Project[]>(
      `SELECT ${PROJECT_COLUMNS}, ${PROJECT_ROLE_COLUMN} FROM sync.projects ${sql.whereClause()} ORDER BY inbox_project DESC, child_order, id ${sql.limitClause(page)}`,
      sql.params,
    );
    return pageOf(rows, page);
  }

  async project(manager: EntityManager, userId: string, id: string): Promise<Project | undefined> {
    if (!isObjectId(id)) return undefined;
    const rows = await manager.query<Project[]>(`SELECT ${PROJECT_COLUMNS}, ${PROJECT_ROLE_COLUMN} FROM sync.projects WHERE id IN (${VISIBLE_PROJECTS}) AND id = $2 AND NOT is_deleted`, [
      userId,
      id,
    ]);
    return rows[0];
  }

  async sections(manager: EntityManager, userId: string, options: { projectId?: string; search?: string; archived?: boolean }, page: Page | undefined): Promise<Paged<Section>> {
    const sql = new ListSql(userId).where(`${inVisibleProjects('project_id')} AND NOT is_deleted`).where(options.archived ? 'is_archived' : 'NOT is_archived');
    if (options.projectId !== undefined) sql.where(isObjectId(options.projectId) ? `project_id = ${sql.value(options.projectId)}` : 'false');
    if (options.search !== undefined) sql.where(`name ILIKE ${sql.value(searchPattern(options.search))}`);
    const rows = await manager.query<Section[]>(
      `SELECT ${SECTION_COLUMNS} FROM sync.sections ${sql.whereClause()} ORDER BY project_id, section_order, id ${sql.limitClause(page)}`,
      sql.params,
    );
    return pageOf(rows, page);
  }

  async section(manager: EntityManager, userId: string, id: string): Promise<Section | undefined> {
    if (!isObjectId(id)) return undefined;
    const rows = await manager.query<Section[]>(
      `SELECT ${SECTION_COLUMNS} FROM sync.sections WHERE project_id IN (${VISIBLE_PROJECTS}) AND id = $2 AND NOT is_deleted`,
      [userId, id],
    );
    return rows[0];
  }

  async labels(manager: EntityManager, userId: string, options: { search?: string }, page: Page | undefined): Promise<Paged<Label>> {
    const sql = new ListSql(userId).where('user_id = $1 AND NOT is_deleted');
    if (options.search !== undefined) sql.where(`name ILIKE ${sql.value(searchPattern(options.search))}`);
    const rows = await manager.query<Label[]>(`SELECT ${LABEL_COLUMNS} FROM sync.labels ${sql.whereClause()} ORDER BY item_order, id ${sql.limitClause(page)}`, sql.params);
    return pageOf(rows, page);
  }

  async label(manager: EntityManager, userId: string, id: string): Promise<Label | undefined> {
    if (!isObjectId(id)) return undefined;
    const rows = await manager.query<Label[]>(`SELECT ${LABEL_COLUMNS} FROM sync.labels WHERE user_id = $1 AND id = $2 AND NOT is_deleted`, [userId, id]);
    return rows[0];
  }

  /** Ids of the user's personal labels with these names (compared lower-cased). */
  async labelIdsByName(manager: EntityManager, userId: string, names: readonly string[]): Promise<Record<string, string>> {
    if (names.length === 0) return {};
    const rows = await manager.query<Array<{ id: string; name: string }>>(
      `SELECT id::text AS id, lower(name) AS name FROM sync.labels WHERE user_id = $1 AND NOT is_deleted AND lower(name) = ANY($2::text[])`,
      [userId, [...new Set(names.map((label) => label.toLowerCase()))]],
    );
    return Object.fromEntries(rows.map((row) => [row.name, row.id]));
  }

  /** Label names on the user's active tasks; without the personal ones when asked. */
  async sharedLabels(manager: EntityManager, userId: string, omitPersonal: boolean, page: Page | undefined): Promise<Paged<string>> {
    const sql = new ListSql(userId).where(ACTIVE_TASK);
    const personal = omitPersonal ? `WHERE lower(name) NOT IN (SELECT lower(name) FROM sync.labels WHERE user_id = $1 AND NOT is_deleted)` : '';
    const rows = await manager.query<Array<{ name: string }>>(
      `SELECT name FROM (SELECT DISTINCT unnest(labels) AS name FROM sync.items ${sql.whereClause()}) names ${personal} ORDER BY name ${sql.limitClause(page)}`,
      sql.params,
    );
    return pageOf(
      rows.map((row) => row.name),
      page,
    );
  }

  async comments(manager: EntityManager, userId: string, on: { taskId?: string; projectId?: string }, page: Page | undefined): Promise<Paged<Note>> {
    const sql = new ListSql(userId).where(`project_id IN (${VISIBLE_PROJECTS}) AND NOT is_deleted`);
    if (on.taskId !== undefined) sql.where(isObjectId(on.taskId) ? `item_id = ${sql.value(on.taskId)}` : 'false');
    else if (on.projectId !== undefined) sql.where(isObjectId(on.projectId) ? `project_id = ${sql.value(on.projectId)} AND item_id IS NULL` : 'false');
    const rows = await manager.query<Note[]>(`SELECT ${NOTE_COLUMNS} FROM sync.notes ${sql.whereClause()} ORDER BY posted_at, id ${sql.limitClause(page)}`, sql.params);
    return pageOf(rows, page);
  }

  async comment(manager: EntityManager, userId: string, id: string): Promise<Note | undefined> {
    if (!isObjectId(id)) return undefined;
    const rows = await manager.query<Note[]>(`SELECT ${NOTE_COLUMNS} FROM sync.notes WHERE project_id IN (${VISIBLE_PROJECTS}) AND id = $2 AND NOT is_deleted`, [
      userId,
      id,
    ]);
    return rows[0];
  }

  /** The active members of a project the user can see (departed members and open invitations are not listed). */
  async collaborators(manager: EntityManager, userId: string, projectId: string, page: Page | undefined): Promise<Paged<{ id: string; name: string; email: string }>> {
    const sql = new ListSql(userId).where(`m.project_id IN (${VISIBLE_PROJECTS}) AND m.state = 'active'`);
    sql.where(`m.project_id = ${sql.value(projectId)}`);
    const rows = await manager.query<Array<{ id: string; name: string; email: string }>>(
      `SELECT u.id::text AS id, u.full_name AS name, u.email FROM sync.project_members m JOIN sync.users u ON u.id = m.user_id
        ${sql.whereClause()} ORDER BY u.id ${sql.limitClause(page)}`,
      sql.params,
    );
    return pageOf(rows, page);
  }

  /**
   * A project's open invitations, oldest first, in the api/v1 shape. Only once the read policy
   * let the reader see them (its caller asks it): this read checks no membership. The columns are
   * named one by one so the secret's hash never leaves the table.
   */
  async projectInvitations(manager: EntityManager, projectId: string): Promise<ApiProjectInvitation[]> {
    return manager.query<ApiProjectInvitation[]>(
      `SELECT id::text, project_id::text, inviter_id::text, invitee_email AS user_email, role, ${wireTimestampSql('created_at')} AS created_at
         FROM sync.project_invitations WHERE project_id = $1 AND state = 'invited' ORDER BY id`,
      [projectId],
    );
  }

  /** How many projects the user can see are archived (api/v1 `projects/archived/count`). */
  async archivedProjectCount(manager: EntityManager, userId: string): Promise<number> {
    const rows = await manager.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM sync.projects WHERE id IN (${VISIBLE_PROJECTS}) AND is_archived AND NOT is_deleted`, [
      userId,
    ]);
    return rows[0]?.count ?? 0;
  }

  /** A project's active members in the Sync API collaborator shape (api/v1 `projects/{id}/full`). */
  async projectPeople(manager: EntityManager, userId: string, projectId: string): Promise<ApiProjectPerson[]> {
    return manager.query<ApiProjectPerson[]>(
      `SELECT u.id::text AS id, u.email, u.full_name, u.timezone, u.image_id
         FROM sync.project_members m JOIN sync.users u ON u.id = m.user_id
        WHERE m.project_id IN (${VISIBLE_PROJECTS}) AND m.project_id = $2 AND m.state = 'active' ORDER BY u.id`,
      [userId, projectId],
    );
  }

  /** Comments in a project: on the project itself and on its tasks. */
  async projectCommentTotal(manager: EntityManager, userId: string, projectId: string): Promise<number> {
    const rows = await manager.query<Array<{ count: number }>>(
      `SELECT count(*)::int AS count FROM sync.notes WHERE project_id IN (${VISIBLE_PROJECTS}) AND project_id = $2 AND NOT is_deleted`,
      [userId, projectId],
    );
    return rows[0]?.count ?? 0;
  }

  /**
   * Which of `ids` name objects of a kind the user can see. Doable never renumbered its objects,
   * so an id maps to itself; one it cannot see maps to nothing and is left out.
   */
  async visibleIds(manager: EntityManager, userId: string, object: IdMappingObject, ids: readonly string[]): Promise<string[]> {
    const wanted = ids.filter(isObjectId);
    if (wanted.length === 0) return [];
    const source: Record<IdMappingObject, string> = {
      tasks: `sync.items WHERE project_id IN (${VISIBLE_PROJECTS})`,
      projects: `sync.projects WHERE id IN (${VISIBLE_PROJECTS})`,
      sections: `sync.sections WHERE project_id IN (${VISIBLE_PROJECTS})`,
      comments: `sync.notes WHERE project_id IN (${VISIBLE_PROJECTS})`,
      reminders: `sync.reminders WHERE project_id IN (${VISIBLE_PROJECTS}) AND type <> 'location'`,
      location_reminders: `sync.reminders WHERE project_id IN (${VISIBLE_PROJECTS}) AND type = 'location'`,
    };
    const rows = await manager.query<Array<{ id: string }>>(`SELECT id::text AS id FROM ${source[object]} AND NOT is_deleted AND id = ANY($2::bigint[])`, [userId, wanted]);
    const found = new Set(rows.map((row) => row.id));
    return wanted.filter((id, index) => found.has(id) && wanted.indexOf(id) === index);
  }

  /** Completed tasks: all time, and since the start of the user's day. */
  async completedCounts(manager: EntityManager, userId: string, timezone: string): Promise<{ total: number; today: number }> {
    const rows = await manager.query<Array<{ total: number; today: number }>>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE completed_at >= date_trunc('day', now() AT TIME ZONE $2) AT TIME ZONE $2)::int AS today
         FROM sync.items WHERE user_id = $1 AND checked AND NOT is_deleted`,
      [userId, timezone],
    );
    return rows[0] ?? { total: 0, today: 0 };
  }
}
