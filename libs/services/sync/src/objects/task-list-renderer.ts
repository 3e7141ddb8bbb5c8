import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TaskFilterService } from '@doable/sync-read';
import { ObjectQueryService, tempIdResolver } from './object-query.service';
import { taskListSql } from './object-reads.repository';
import { renderTaskList, type TaskListRendering } from './rendered-task-list';
import { restV2TaskListSql, type TaskSelection } from './rest-v2-task-list.sql';

/** PostgreSQL's `invalid_parameter_value`: what AT TIME ZONE raises for a zone it does not know. */
const INVALID_PARAMETER_VALUE = '22023';

function isUnknownZone(error: unknown): boolean {
  const failed = error as { driverError?: { code?: unknown }; code?: unknown; message?: unknown };
  const code = failed.driverError?.code ?? failed.code;
  return code === INVALID_PARAMETER_VALUE && typeof failed.message === 'string' && failed.message.includes('time zone');
}

/**
 * Task lists answered as text in a dialect (REST v2, `ObjectsRequest.render`). PostgreSQL writes
 * them (rest-v2-task-list.sql.ts) when the list is one SELECT: a `tasks` list, or a filter of one
 * comma list, unpaged. The rest, and a list whose due zones PostgreSQL does not know, are read as
 * rows and written by the REST contracts' own JavaScript writer (rendered-task-list.ts), which the
 * integration spec holds the SQL to.
 */
@Injectable()
export class TaskListRenderer {
  constructor(
    private readonly queries: ObjectQueryService,
    private readonly filters: TaskFilterService,
  ) {}

  async render(manager: EntityManager, userId: string, rendering: TaskListRendering, tempIds: Readonly<Record<string, string>>): Promise<{ body: string; hasMore: boolean }> {
    const selection = await this.selection(manager, userId, rendering, tempIds);
    if (selection) {
      const { sql, params } = restV2TaskListSql(selection, rendering.render.public_url);
      try {
        const [row] = await manager.query<Array<{ body: string }>>(sql, params);
        return { body: row.body, hasMore: false };
      } catch (error) {
        if (!isUnknownZone(error)) throw error;
      }
    }
    const tasks = await this.queries.taskList(manager, userId, rendering.query, tempIds);
    return { body: renderTaskList(rendering.render, tasks.objects), hasMore: tasks.hasMore };
  }

  /** The list as one WHERE, or undefined where it is not one unpaged SELECT. */
  private async selection(manager: EntityManager, userId: string, { query }: TaskListRendering, tempIds: Readonly<Record<string, string>>): Promise<TaskSelection | undefined> {
    if (query.page !== undefined) return undefined;
    if (query.resource === 'tasks_by_filter') return this.filters.activeWhere(manager, userId, query.filter, { lang: query.lang });
    const { id, optionalId } = tempIdResolver(tempIds);
    const sql = taskListSql(userId, { ids: query.ids?.map(id), projectId: optionalId(query.project_id), sectionId: optionalId(query.section_id), parentId: optionalId(query.parent_id), label: query.label });
    return { where: sql.conditionText(), params: sql.params };
  }
}
