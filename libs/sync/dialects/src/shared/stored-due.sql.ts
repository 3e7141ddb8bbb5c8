import { jsonbTextSql, sqlLiteral } from '@doable/sync-domain';

/**
 * A key of a stored due (jsonb) in SQL, for the due objects the writers build from it (writeDue,
 * restV2Due): its JSON text, and whether the due has the key (JavaScript leaves an absent key
 * out, and writes a JSON null as null); `present` null when it always has.
 */
export interface DueKey {
  readonly text: string;
  readonly present: string | null;
  /** `text` may be SQL NULL (a value PostgreSQL cannot write as JavaScript would, jsonbTextSql). */
  readonly mayBeUnwritten: boolean;
}

/** Reads the keys of the stored due `due`. */
export type DueKeys = (key: string) => DueKey;

/** Any stored due: each key looked up, and written as its stored JSON (jsonbTextSql). */
export const anyDueKeys =
  (due: string): DueKeys =>
  (key) => ({ text: jsonbTextSql(`(${due} -> ${sqlLiteral(key)})`), present: `(${due} ? ${sqlLiteral(key)})`, mayBeUnwritten: true });

/**
 * Any stored due whose keys hold strings, booleans or nulls (all a due ever holds): each key looked
 * up and written as jsonb writes it, which for these is JSON.stringify's text. A key holding a
 * number, an object or an array is NULL (not written: the caller writes it in JavaScript), which
 * spares the statement jsonbTextSql's three regular expressions per key: a fifth of the REST v2
 * list's SQL, planned on every request (issue #48).
 */
export const scalarDueKeys =
  (due: string): DueKeys =>
  (key) => {
    const value = `(${due} -> ${sqlLiteral(key)})`;
    return { text: `(CASE WHEN jsonb_typeof(${value}) IN ('string', 'boolean', 'null') THEN ${value}::text END)`, present: `(${due} ? ${sqlLiteral(key)})`, mayBeUnwritten: true };
  };

/** The type of each key of a due as the domain stores it (StoredDue), as jsonb_typeof names it. */
const STORED_DUE_TYPES: Readonly<Record<string, string>> = { date: "= 'string'", string: "= 'string'", lang: "= 'string'", is_recurring: "= 'boolean'", timezone: "IN ('string', 'null')" };

/**
 * A due as the domain stores it (StoredDue): `date`, `string` and `lang` strings, `is_recurring`
 * a boolean, `timezone` a string or null, all present. Checked once per due, it lets each key be
 * read as text (`->>`) and quoted, at about half the cost of asking each key its type. `known`:
 * keys the caller has checked already (a date sync.items.due_date_text holds is a string).
 */
export const storedDueSql = (due: string, known: readonly string[] = []): string =>
  `(${Object.entries(STORED_DUE_TYPES)
    .filter(([key]) => !known.includes(key))
    .map(([key, type]) => `jsonb_typeof(${due} -> ${sqlLiteral(key)}) ${type}`)
    .join(' AND ')})`;

/** The keys of a due storedDueSql holds for: each of its known type and present. */
export const storedDueKeys =
  (due: string): DueKeys =>
  (key) => {
    const value = `(${due} ->> ${sqlLiteral(key)})`;
    if (key === 'is_recurring') return { text: value, present: null, mayBeUnwritten: false };
    if (key === 'timezone') return { text: `coalesce(to_json${value}::text, 'null')`, present: null, mayBeUnwritten: false };
    if (key === 'date' || key === 'string' || key === 'lang') return { text: `to_json${value}::text`, present: null, mayBeUnwritten: false };
    // A key the check does not cover is read as any due's.
    return anyDueKeys(due)(key);
  };

/** A due object's text built twice from one description: the cheap way for a stored due, the general way for any other. */
export function eitherDueSql(due: string, build: (keys: DueKeys) => string): string {
  return `(CASE WHEN ${storedDueSql(due)} THEN ${build(storedDueKeys(due))} ELSE ${build(anyDueKeys(due))} END)`;
}
