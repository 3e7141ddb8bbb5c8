import type { DataSource } from 'typeorm';

/**
 * Makes the first COMMIT of a transaction that inserted a row of `table` matching `condition`
 * (SQL over NEW) fail with `sqlstate`, as PostgreSQL aborts a deadlock victim (40P01) or a
 * transaction it cannot serialize (40001): a deferred constraint trigger raises it at COMMIT,
 * after every statement succeeded. A sequence, which a rollback does not undo, counts the
 * commits tried; `attempts()` reads it. For integration tests of the retry of whole transactions.
 */
export async function failFirstCommit(
  dataSource: DataSource,
  options: { readonly name: string; readonly table: string; readonly sqlstate: string; readonly condition?: string },
): Promise<{ attempts(): Promise<number> }> {
  const { name, table, sqlstate, condition = 'true' } = options;
  await dataSource.query(`CREATE SEQUENCE sync.${name}_attempts`);
  await dataSource.query(`CREATE FUNCTION sync.${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (${condition}) AND nextval('sync.${name}_attempts') = 1 THEN RAISE EXCEPTION '${name}: aborted once (simulated)' USING ERRCODE = '${sqlstate}'; END IF;
      RETURN NULL;
    END $$`);
  await dataSource.query(`CREATE CONSTRAINT TRIGGER ${name} AFTER INSERT ON ${table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sync.${name}()`);
  return {
    attempts: async () => (await dataSource.query<Array<{ n: number }>>(`SELECT CASE WHEN is_called THEN last_value::int ELSE 0 END AS n FROM sync.${name}_attempts`))[0].n,
  };
}
