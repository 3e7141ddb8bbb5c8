import { jsonbTextSql, sqlLiteral } from '@doable/sync-domain';

/**
 * A key of a stored due (jsonb) in SQL, for the due objects the writers build from it (writeDue,
 * restV2Due): its JSON text, and whether the due has the key (JavaScript leaves an absent key
 * out, and writes a JSON null as null); `present` null when it always has.
 */
export interface DueKey {
  readonly text: string;
  readonly present: string | null;
}

/** Reads the keys of the stored due `due`. */
export type DueKeys = (key: string) => DueKey;

/** Any stored due: each key looked up, and written as its stored JSON (jsonbTextSql). */
export const anyDueKeys =
  (due: string): DueKeys =>
  (key) => ({ text: jsonbTextSql(`(${due} -> ${sqlLiteral(key)})`), present: `(${due} ? ${sqlLiteral(key)})` });

/**
 * A due as the domain stores it (StoredDue): `date`, `string` and `lang` strings, `is_recurring`
 * a boolean, `timezone` a string or null, all present. Checked once per due, it lets each key be
 * read as text (`->>`) and quoted, at about half the cost of asking each key its type.
 */
export const storedDueSql = (due: string): string =>
  `(jsonb_typeof(${due} -> 'date') = 'string' AND jsonb_typeof(${due} -> 'string') = 'string' AND jsonb_typeof(${due} -> 'lang') = 'string'
    AND jsonb_typeof(${due} -> 'is_recurring') = 'boolean' AND jsonb_typeof(${due} -> 'timezone') IN ('string', 'null'))`;

/** The keys of a due storedDueSql holds for: each of its known type and present. */
export const storedDueKeys =
  (due: string): DueKeys =>
  (key) => {
    const value = `(${due} ->> ${sqlLiteral(key)})`;
    if (key === 'is_recurring') return { text: value, present: null };
    if (key === 'timezone') return { text: `coalesce(to_json${value}::text, 'null')`, present: null };
    if (key === 'date' || key === 'string' || key === 'lang') return { text: `to_json${value}::text`, present: null };
    // A key the check does not cover is read as any due's.
    return anyDueKeys(due)(key);
  };

/** A due object's text built twice from one description: the cheap way for a stored due, the general way for any other. */
export function eitherDueSql(due: string, build: (keys: DueKeys) => string): string {
  return `(CASE WHEN ${storedDueSql(due)} THEN ${build(storedDueKeys(due))} ELSE ${build(anyDueKeys(due))} END)`;
}
