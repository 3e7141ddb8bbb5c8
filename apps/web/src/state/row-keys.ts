/**
 * A task made here is shown under its temp id until the server names it, and then under its
 * real id. Keyed by id alone, its row would be a new row at that moment: an open comments panel
 * would close and a comment half typed would be lost (a person who adds a task and opens its
 * comments at once meets this). Rows are keyed by the first id they had instead.
 */
const firstIdOf = new Map<string, string>();

/** Learns the server's names for ids made here (a sync's or a quick add's temp_id_mapping). */
export function keepRowKeys(mapping: Readonly<Record<string, string>>): void {
  for (const [tempId, realId] of Object.entries(mapping)) if (!firstIdOf.has(realId)) firstIdOf.set(realId, tempId);
}

/** The key of a task's row: its temp id while it lives, if it was made here. */
export function rowKey(id: string): string {
  return firstIdOf.get(id) ?? id;
}
