import { DomainError } from '@doable/shared-errors';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SUPPORTED_LANGS } from '@doable/sync-dates';
import { inLiveVisibleProjects, ITEM_WIRE_COLUMNS, UserProfileRepository, type WireItem } from '@doable/sync-domain';
import { compileAnyFilter, compileFilter, type CompiledFilter, type FilterContext, type FilterList, parseFilterQuery } from '@doable/sync-filter-language';

export interface TaskFilterOptions {
  /** Language of the date phrases in the query (REST `lang`); default the user's language. */
  readonly lang?: string;
  /** The clock the query is read against; default the current time. */
  readonly now?: Date;
}

/**
 * Active tasks: not completed (a checked subtask of an open parent included), not deleted, in a
 * project that is neither archived nor deleted, and visible to the user (VISIBLE_PROJECTS). The
 * user's live projects are read once into an array, not looked up per task, and their tasks
 * taken in one bitmap scan (inLiveVisibleProjects; issue #48: S5's list 9.5 -> 6.0 ms of
 * PostgreSQL beside a 50,000-task account, 5,000 heap pages visited -> 1,487).
 */
const ACTIVE_VISIBLE = `${inLiveVisibleProjects('item.project_id')}
  AND NOT item.is_deleted AND NOT item.checked AND NOT item.in_history`;

/**
 * The same order as a full sync lists tasks (ItemRepository.listActive): by project, then the
 * task's position among its siblings, then id, so equal positions still come out the same way.
 */
const ORDER = 'ORDER BY item.project_id, item.child_order, item.id';

/** One comma list as the whole WHERE of its active, visible tasks. */
function activeWhereOf(list: FilterList, ctx: FilterContext): CompiledFilter {
  const { where, params } = compileFilter(list.expression, ctx);
  return { where: `${ACTIVE_VISIBLE} AND ${where}`, params };
}

/**
 * The Todoist filter language over a user's tasks, evaluated in PostgreSQL: one parameterised
 * query per comma-separated list, never a scan of tasks in memory.
 */
@Injectable()
export class TaskFilterService {
  constructor(private readonly profiles: UserProfileRepository) {}

  /**
   * One array of tasks per comma-separated list of `query`, in the order of the lists. Throws
   * INVALID_ARGUMENT_VALUE (`argument: 'filter'`) for a query that does not parse or names a date
   * that cannot be read, and (`argument: 'lang'`) for an unsupported language.
   */
  async find(manager: EntityManager, userId: string, query: string, options: TaskFilterOptions = {}): Promise<WireItem[][]> {
    const lists = parseFilterQuery(query);
    const ctx = await this.context(manager, userId, options);
    const results: WireItem[][] = [];
    for (const list of lists) results.push(await this.findList(manager, list, ctx));
    return results;
  }

  /**
   * A query as one WHERE fragment over `sync.items AS item` (its comma lists joined by OR), for
   * a caller that adds its own conditions (completed history); $1 is the user id. Throws like find().
   */
  async compile(manager: EntityManager, userId: string, query: string, options: TaskFilterOptions = {}): Promise<CompiledFilter> {
    const lists = parseFilterQuery(query);
    const ctx = await this.context(manager, userId, options);
    return compileAnyFilter(
      lists.map((list) => list.expression),
      ctx,
    );
  }

  /**
   * A query of one comma list as the whole WHERE of its active, visible tasks over `sync.items AS
   * item` ($1 the user id), for a caller that writes the rows in SQL itself (a REST v2 list as
   * JSON); undefined for several lists, whose union find() answers. Throws like find().
   */
  async activeWhere(manager: EntityManager, userId: string, query: string, options: TaskFilterOptions = {}): Promise<CompiledFilter | undefined> {
    const lists = parseFilterQuery(query);
    if (lists.length !== 1) return undefined;
    return activeWhereOf(lists[0], await this.context(manager, userId, options));
  }

  /** Whether a query parses and its dates read (for filter_add/filter_update); throws like find(). */
  validate(query: string, lang = 'en'): void {
    const ctx: FilterContext = { userId: '0', timezone: 'UTC', now: new Date(), lang };
    for (const list of parseFilterQuery(query)) compileFilter(list.expression, ctx);
  }

  private async findList(manager: EntityManager, list: FilterList, ctx: FilterContext): Promise<WireItem[]> {
    const { where, params } = activeWhereOf(list, ctx);
    return manager.query<WireItem[]>(`SELECT ${ITEM_WIRE_COLUMNS} FROM sync.items AS item WHERE ${where} ${ORDER}`, [...params]);
  }

  private async context(manager: EntityManager, userId: string, options: TaskFilterOptions): Promise<FilterContext> {
    const profile = await this.profiles.find(manager, userId);
    if (!profile) throw new DomainError('USER_NOT_FOUND', 'User not found', { user_id: userId });
    return {
      userId,
      timezone: profile.timezone,
      now: options.now ?? new Date(),
      // An explicit language must be supported; a profile language the date packs lack reads as English.
      lang: options.lang ?? (SUPPORTED_LANGS.includes(profile.lang) ? profile.lang : 'en'),
      startDay: profile.start_day,
      nextWeekDay: profile.next_week,
    };
  }
}
