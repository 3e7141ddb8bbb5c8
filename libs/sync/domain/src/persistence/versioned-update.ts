import type { EntityManager } from 'typeorm';

/**
 * The one way a synced row changes: the given columns, plus the change version (so incremental
 * syncs see it) and `updated_at`. Column names come from code, never from requests; values are
 * bound parameters. `undefined` means "leave as is"; JSON columns are serialised.
 */
export async function updateVersioned<Row>(
  manager: EntityManager,
  table: string,
  ids: readonly string[],
  changes: Readonly<Record<string, unknown>>,
  version: string,
  options: { jsonColumns?: ReadonlySet<string>; returning?: string } = {},
): Promise<Row[]> {
  if (ids.length === 0) return [];
  const entries = Object.entries(changes).filter(([, value]) => value !== undefined);
  const assignments = entries.map(([column], index) => `${column} = $${index + 3}`);
  const values = entries.map(([column, value]) => (options.jsonColumns?.has(column) && value !== null ? JSON.stringify(value) : value));
  const returning = options.returning ? ` RETURNING ${options.returning}` : '';
  const result = await manager.query<Row[] | [Row[], number]>(
    `UPDATE ${table} SET ${[...assignments, 'version = $2', 'updated_at = now()'].join(', ')} WHERE id = ANY($1::bigint[])${returning}`,
    [ids, version, ...values],
  );
  // TypeORM answers UPDATE ... RETURNING with [rows, affected].
  return options.returning && Array.isArray(result[0]) ? (result[0]) : [];
}
