import { DomainError } from '@doable/shared-errors';
import type { EntityManager } from 'typeorm';
import { Database } from '@doable/shared-runtime';
import { Injectable } from '@nestjs/common';
import { SUPPORTED_LANGS } from '@doable/sync-dates';
import { syncApiV1Writers, syncV9Writers, wireTimestamp } from '@doable/sync-dialects';
import type { CompiledFilter } from '@doable/sync-filter-language';
import { TaskFilterService } from '@doable/sync-read';
import { type CompletedBy, type CompletedPosition, type CompletedQuery, CompletedRepository, type CompletedSearch, decodeCursor, encodeCursor, type Item, parseCompletedQuery, parseCompletedSearch, parseGetAllQuery, PlanLimitsRepository, type Project, PROJECT_COLUMNS, requireCompletedTasks, type Section, SECTION_COLUMNS } from '@doable/sync-domain';

type Page = { items: unknown[]; next_cursor: string | null };

const cursorParam = (params: Record<string, unknown>): string | null => {
  const raw: unknown = Array.isArray(params['cursor']) ? (params['cursor'] as unknown[])[0] : params['cursor'];
  return typeof raw === 'string' && raw ? raw : null;
};

/** Completed-task history in the shapes of v9 (`completed/get_all`) and api/v1 (`tasks/completed/by_*`). */
@Injectable()
export class CompletedService {
  constructor(
    private readonly database: Database,
    private readonly completed: CompletedRepository,
    private readonly filters: TaskFilterService,
    private readonly plans: PlanLimitsRepository,
  ) {}

  /**
   * api/v1 `tasks/completed/by_*`: `{items, next_cursor}`, tasks in the API v1 shape. A
   * `filter_query` is the filter language, applied in the same SQL as the window.
   */
  async byWindow(userId: string, by: CompletedBy, params: Record<string, unknown>): Promise<Page> {
    await this.requirePlan(userId);
    const query = parseCompletedQuery(by, params);
    const cursor = cursorParam(params);
    const after = cursor ? decodeCursor(userId, query, cursor) : null;
    const manager = this.database.dataSource.manager;
    const filter = query.filterQuery === null || query.filterQuery.trim() === '' ? null : await this.compileFilter(manager, userId, query);
    const rows = await this.completed.inWindow(manager, userId, query, after, filter);
    return this.page(userId, query, rows, (last) => (by === 'completion' ? new Date(last.completed_at!).toISOString() : (last.due?.date ?? '')));
  }

  /** api/v1 `completed/search`: completed tasks whose content holds `query`, newest first, `{items, next_cursor}`. */
  async search(userId: string, params: Record<string, unknown>): Promise<Page> {
    await this.requirePlan(userId);
    const search = parseCompletedSearch(params);
    const cursor = cursorParam(params);
    const after = cursor ? decodeCursor(userId, search, cursor) : null;
    const rows = await this.completed.search(this.database.dataSource.manager, userId, search, after);
    return this.page(userId, search, rows, (last) => new Date(last.completed_at!).toISOString());
  }

  /**
   * api/v1 `tasks/completed` (sdk 17 getAllCompletedTasks): the v9 `get_all` listing with tasks
   * in the API v1 shape (the sdk validates them as Tasks), and their projects and sections by id.
   */
  async allApiV1(userId: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    await this.requirePlan(userId);
    const query = parseGetAllQuery(params);
    const { items, projects, sections } = await this.database.readSnapshot((manager) => this.withContainers(manager, userId, query));
    const writers = syncApiV1Writers;
    return {
      items: items.map((item) => writers.item(item)),
      projects: Object.fromEntries(projects.map((project) => [project.id, writers.project(project)])),
      sections: Object.fromEntries(sections.map((section) => [section.id, writers.section(section)])),
    };
  }

  /** Every listing of the history first: the plan's completed_tasks feature (completed/completed-plan.ts). */
  private requirePlan(userId: string): Promise<void> {
    return requireCompletedTasks(this.database.dataSource.manager, this.plans, userId);
  }

  private page(userId: string, query: CompletedQuery | CompletedSearch, rows: Item[], keyOf: (last: Item) => string): Page {
    const page = rows.slice(0, query.limit);
    const last = page[page.length - 1];
    const position: CompletedPosition | null = rows.length > query.limit && last ? { key: keyOf(last), id: last.id } : null;
    return { items: page.map((item) => syncApiV1Writers.item(item)), next_cursor: position ? encodeCursor(userId, query, position) : null };
  }

  /** The filter language's errors name the argument they came in: here `filter_query` (or `filter_lang`). */
  private async compileFilter(manager: EntityManager, userId: string, query: CompletedQuery): Promise<CompiledFilter> {
    // Checked whether or not the query has dates to read, so a wrong language is never ignored.
    if (query.filterLang !== null && !SUPPORTED_LANGS.includes(query.filterLang)) {
      throw new DomainError('INVALID_ARGUMENT_VALUE', `Unsupported filter_lang: ${query.filterLang}`, { argument: 'filter_lang', supported: SUPPORTED_LANGS });
    }
    try {
      return await this.filters.compile(manager, userId, query.filterQuery ?? '', { lang: query.filterLang ?? undefined });
    } catch (error) {
      if (error instanceof DomainError && error.code === 'INVALID_ARGUMENT_VALUE') {
        const argument = error.extra['argument'] === 'lang' ? 'filter_lang' : 'filter_query';
        throw new DomainError('INVALID_ARGUMENT_VALUE', error.message, { ...error.extra, argument });
      }
      throw error;
    }
  }

  private async withContainers(manager: EntityManager, userId: string, query: ReturnType<typeof parseGetAllQuery>) {
    const rows = await this.completed.page(manager, userId, query);
    const projectIds = [...new Set(rows.map((item) => item.project_id))];
    const sectionIds = [...new Set(rows.map((item) => item.section_id).filter((id): id is string => id !== null))];
    const [projectRows, sectionRows] = await Promise.all([
      projectIds.length ? manager.query<Project[]>(`SELECT ${PROJECT_COLUMNS} FROM sync.projects WHERE id = ANY($1::bigint[])`, [projectIds]) : [],
      sectionIds.length ? manager.query<Section[]>(`SELECT ${SECTION_COLUMNS} FROM sync.sections WHERE id = ANY($1::bigint[])`, [sectionIds]) : [],
    ]);
    return { items: rows, projects: projectRows, sections: sectionRows };
  }

  /** v9: `{items, projects, sections}` with the projects and sections those items live in. */
  async getAll(userId: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    await this.requirePlan(userId);
    const query = parseGetAllQuery(params);
    const { items, projects, sections } = await this.database.readSnapshot((manager) => this.withContainers(manager, userId, query));
    const writers = syncV9Writers;
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

  /** An api/v1 completed-history request, by the path it came to. */
  apiV1(userId: string, path: string, params: Record<string, unknown>): Promise<unknown> {
    const endpoint = path.replace(/\/+$/, '');
    if (endpoint.endsWith('/tasks/completed/by_completion_date')) return this.byWindow(userId, 'completion', params);
    if (endpoint.endsWith('/tasks/completed/by_due_date')) return this.byWindow(userId, 'due', params);
    if (endpoint.endsWith('/completed/search')) return this.search(userId, params);
    if (endpoint.endsWith('/tasks/completed')) return this.allApiV1(userId, params);
    throw new DomainError('ROUTE_NOT_FOUND', `No completed-tasks endpoint at ${path}`);
  }
}
