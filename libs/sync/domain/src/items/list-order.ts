/** Where a task stands in every task list: its project, its position there, its id (bigints as PostgreSQL's `::text`). */
export interface ListPlace {
  readonly project_id: string;
  readonly child_order: number;
  readonly id: string;
}

/**
 * Two ids as PostgreSQL writes a bigint (`::text`), in numeric order without losing digits. The
 * ids Doable makes are positive (sequences), so their text has no sign and no leading zero, and a
 * shorter text is a smaller number.
 */
export function compareIdTexts(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * `ORDER BY project_id, child_order, id` for rows read unordered. A full sync sorts its tasks here
 * rather than in PostgreSQL (issue #48, bench S3): the statement's sort copied every task's text
 * (3 MB for 5,000 tasks) into fresh memory, past work_mem and onto disk for an account of about
 * 6,500 tasks, where sorting 5,000 places here costs a few milliseconds.
 */
export function compareListOrder(a: ListPlace, b: ListPlace): number {
  return compareIdTexts(a.project_id, b.project_id) || a.child_order - b.child_order || compareIdTexts(a.id, b.id);
}
