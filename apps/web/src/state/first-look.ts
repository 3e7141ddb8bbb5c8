import { filterTasks } from '../api/filter-tasks';
import type { Item } from '../api/sync-types';

/**
 * A first visit's Today before its full sync has answered. A large account's full sync is
 * megabytes (S3's 5,000 tasks: 3 MiB, most of a second on a busy server), and Today needs only
 * the open tasks due today or earlier. The filter endpoint of the public API answers those in a
 * fraction of that; the full sync then replaces them, as it replaces everything.
 */

/** One page per list, the endpoint's largest: enough for the rows a list draws first (FIRST_ROWS). */
const PER_LIST = 200;

/**
 * Today's two lists in the filter language, by the browser's day (what the Today view itself
 * uses) rather than the server's `today`, which follows the profile's time zone.
 */
export function todayQueries(today: string): { overdue: string; today: string } {
  return { overdue: `due before: ${today}`, today: `due: ${today}` };
}

/** The open tasks overdue or due on `today`, one page of each (the two asked at once). */
export async function fetchTodayFirstLook(today: string): Promise<Item[]> {
  const queries = todayQueries(today);
  const pages = await Promise.all([queries.overdue, queries.today].map((query) => filterTasks(query, PER_LIST)));
  return pages.flat();
}
