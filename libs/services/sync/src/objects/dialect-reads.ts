import type { RenderSource, TaskListQuery, TaskSelection } from '@doable/sync-dialects';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TaskFilterService } from '@doable/sync-read';
import { ObjectQueryService, tempIdResolver } from './object-query.service';
import { taskListSql } from './object-reads.repository';

/**
 * What a rendering dialect (REST v2, `ObjectsRequest.render`) reads from, for one request: the
 * query's api/v1 objects as every answer reads them, and a task list as one WHERE (a `tasks`
 * list, or a filter of one comma list, unpaged) for PostgreSQL to write in one statement.
 */
@Injectable()
export class DialectReads {
  constructor(
    private readonly queries: ObjectQueryService,
    private readonly filters: TaskFilterService,
  ) {}

  source(manager: EntityManager, userId: string, tempIds: Readonly<Record<string, string>>): RenderSource {
    return {
      objects: (query) => this.queries.run(manager, userId, query, tempIds),
      taskSelection: (query) => this.selection(manager, userId, query, tempIds),
      query: (sql, params) => manager.query(sql, [...params]),
    };
  }

  /** The list as one WHERE, or undefined where it is not one unpaged SELECT. */
  private async selection(manager: EntityManager, userId: string, query: TaskListQuery, tempIds: Readonly<Record<string, string>>): Promise<TaskSelection | undefined> {
    if (query.page !== undefined) return undefined;
    if (query.resource === 'tasks_by_filter') return this.filters.activeWhere(manager, userId, query.filter, { lang: query.lang });
    const { id, optionalId } = tempIdResolver(tempIds);
    const sql = taskListSql(userId, { ids: query.ids?.map(id), projectId: optionalId(query.project_id), sectionId: optionalId(query.section_id), parentId: optionalId(query.parent_id), label: query.label });
    return { where: sql.conditionText(), params: sql.params };
  }
}
