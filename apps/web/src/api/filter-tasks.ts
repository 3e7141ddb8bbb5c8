import { api } from './http';
import type { Item } from './sync-types';

/** The endpoint's largest page. */
const PAGE_LIMIT = 200;

/**
 * Open tasks matching a query in the filter language, evaluated by the server
 * (GET /api/v1/tasks/filter), page after page up to `atMost` (a page holds 200).
 */
export async function filterTasks(query: string, atMost = 2000): Promise<Item[]> {
  const tasks: Item[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ query, limit: String(PAGE_LIMIT), ...(cursor ? { cursor } : {}) });
    const page: { results: Item[]; next_cursor: string | null } = await api(`/api/v1/tasks/filter?${params.toString()}`);
    tasks.push(...page.results);
    cursor = page.next_cursor;
  } while (cursor && tasks.length < atMost);
  return tasks;
}
