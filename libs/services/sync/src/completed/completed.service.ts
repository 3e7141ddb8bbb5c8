import { DomainError } from '@doable/shared-errors';
import { Database } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { DIALECT_WRITERS } from '../dialects/dialect-writers';
import { wireTimestamp } from '../dialects/wire-format';
import type { Item } from '../items/item.model';
import { PROJECT_COLUMNS, type Project } from '../projects/project.model';
import { SECTION_COLUMNS, type Section } from '../sections/section.model';
import { CompletedRepository } from './completed.repository';
import { decodeCursor, encodeCursor } from './completed-cursor';
import { type CompletedBy, parseCompletedQuery, parseGetAllQuery } from './completed-query';

/** Completed-task history in the shapes of v9 (`completed/get_all`) and api/v1 (`tasks/completed/by_*`). */
@Injectable()
export class CompletedService {
  constructor(
    private readonly database: Database,
    private readonly completed: CompletedRepository,
  ) {}

  /** api/v1: `{items, next_cursor}`, tasks in the API v1 shape. */
  async byWindow(userId: string, by: CompletedBy, params: Record<string, unknown>): Promise<{ items: unknown[]; next_cursor: string | null }> {
    const query = parseCompletedQuery(by, params);
    const rawCursor: unknown = Array.isArray(params['cursor']) ? (params['cursor'] as unknown[])[0] : params['cursor'];
    const after = typeof rawCursor === 'string' && rawCursor ? decodeCursor(userId, query, rawCursor) : null;
    const rows = await this.completed.inWindow(this.database.dataSource.manager, userId, query, after);
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    const nextCursor =
      rows.length > query.limit && last
        ? encodeCursor(userId, query, { key: by === 'completion' ? new Date(last.completed_at!).toISOString() : (last.due?.date ?? ''), id: last.id })
        : null;
    return { items: page.map((item) => DIALECT_WRITERS['sync-api-v1'].item(item)), next_cursor: nextCursor };
  }

  /** v9: `{items, projects, sections}` with the projects and sections those items live in. */
  async getAll(userId: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const query = parseGetAllQuery(params);
    const { items, projects, sections } = await this.database.readSnapshot(async (manager) => {
      const rows = await this.completed.page(manager, userId, query);
      const projectIds = [...new Set(rows.map((item) => item.project_id))];
      const sectionIds = [...new Set(rows.map((item) => item.section_id).filter((id): id is string => id !== null))];
      const [projectRows, sectionRows] = await Promise.all([
        projectIds.length ? manager.query<Project[]>(`SELECT ${PROJECT_COLUMNS} FROM sync.projects WHERE id = ANY($1::bigint[])`, [projectIds]) : [],
        sectionIds.length ? manager.query<Section[]>(`SELECT ${SECTION_COLUMNS} FROM sync.sections WHERE id = ANY($1::bigint[])`, [sectionIds]) : [],
      ]);
      return { items: rows, projects: projectRows, sections: sectionRows };
    });
    const writers = DIALECT_WRITERS['sync-v9'];
    return {
      items: items.map((item: Item) => ({
        id: item.id,
        task_id: item.id,
        user_id: item.user_id,
        project_id: item.project_id,
        section_id: item.section_id,
        content: item.content,
        completed_at: item.completed_at ? wireTimestamp(new Date(item.completed_at)) : null,
        note_count: 0,
        notes: [],
        meta_data: null,
        item_object: writers.item(item),
      })),
      projects: Object.fromEntries(projects.map((project) => [project.id, writers.project(project)])),
      sections: Object.fromEntries(sections.map((section) => [section.id, writers.section(section)])),
    };
  }

  /** Which api/v1 endpoint a path names. */
  static windowOf(path: string): CompletedBy {
    if (path.endsWith('/by_completion_date')) return 'completion';
    if (path.endsWith('/by_due_date')) return 'due';
    throw new DomainError('ROUTE_NOT_FOUND', `No completed-tasks endpoint at ${path}`);
  }
}
