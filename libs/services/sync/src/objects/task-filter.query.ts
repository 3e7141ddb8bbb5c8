import type { Page } from '@doable/contracts-sync';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TaskFilterService } from '@doable/sync-read';
import type { WireItem } from '@doable/sync-domain';
import type { Paged } from './object-reads.repository';

/**
 * Tasks matching a filter query (`/rest/v2/tasks?filter=`, `/api/v1/tasks/filter?query=`). A
 * query with several comma lists answers their union, in list order, each task once.
 */
@Injectable()
export class TaskFilterQuery {
  constructor(private readonly filters: TaskFilterService) {}

  async find(manager: EntityManager, userId: string, query: string, lang: string | undefined, page: Page | undefined): Promise<Paged<WireItem>> {
    const lists = await this.filters.find(manager, userId, query, { lang });
    const rows = lists.length === 1 ? lists[0] : union(lists);
    if (!page) return { rows, hasMore: false };
    return { rows: rows.slice(page.offset, page.offset + page.limit), hasMore: rows.length > page.offset + page.limit };
  }
}

/**
 * The lists' tasks in list order, each once. One list is its own union: its rows come from one
 * SELECT over the tasks' primary key, so no id repeats (and a 1,000-task answer skips a Set).
 */
function union(lists: readonly WireItem[][]): WireItem[] {
  const seen = new Set<string>();
  return lists.flat().filter((row) => !seen.has(row.id) && seen.add(row.id));
}
