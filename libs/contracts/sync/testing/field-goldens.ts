import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FieldTable, LegacyKey } from '../src/fields/field-line';

/**
 * A field table against the golden answers: the keys each dialect's object has in the answers
 * the e2e suite records (e2e/golden/*.keys.json, checked against live responses by
 * dialect-golden.e2e-spec.ts and rest-golden.e2e-spec.ts) are the keys the table names for it.
 * For the specs of each resource's table (task-fields.spec.ts has its own copy).
 */

export type Dialect = 'apiV1' | 'restApiV1' | 'v9' | 'restV2' | 'v8' | 'v7' | 'restV1';

/** One golden answer of a resource: the dialect that wrote it, its file, and the object's name there. */
export interface Golden {
  readonly dialect: Dialect;
  readonly file: string;
  readonly resource: string;
}

export function goldenKeys(file: string, resource: string): string[] {
  const golden = JSON.parse(readFileSync(join(__dirname, '../../../../e2e/golden', file), 'utf8')) as Record<string, string[]>;
  return golden[resource] ?? [];
}

/**
 * The keys a table gives a dialect: `always` written on every object, `sometimes` left out when
 * there is nothing to say (a legacy key ending in `?`, or a current one written `when` a
 * condition holds). api/v1's REST surface writes api/v1's keys but those written in sync only.
 */
export function tableKeys(table: FieldTable, dialect: Dialect): { always: string[]; sometimes: string[] } {
  const always: string[] = [];
  const sometimes: string[] = [];
  for (const line of Object.values(table)) {
    if (dialect === 'apiV1' || dialect === 'v9' || dialect === 'restApiV1') {
      const key = line[dialect === 'restApiV1' ? 'apiV1' : dialect];
      if (key === undefined || (dialect === 'restApiV1' && line.syncOnly)) continue;
      (line.when === undefined ? always : sometimes).push(key);
      continue;
    }
    const keys: readonly LegacyKey[] = dialect === 'restV2' ? (line.restV2 ? [line.restV2.key] : []) : (line[dialect] ?? []);
    for (const key of keys) {
      if (key.endsWith('?')) sometimes.push(key.slice(0, -1));
      else always.push(key);
    }
  }
  return { always, sometimes };
}

/**
 * What a table and a golden answer disagree on: keys the table says are always written that
 * the answer lacks, and keys of the answer the table does not name.
 */
export function goldenMismatch(table: FieldTable, golden: Golden): { missing: string[]; unnamed: string[] } {
  const answered = goldenKeys(golden.file, golden.resource);
  if (answered.length === 0) throw new Error(`${golden.file} has no ${golden.resource}`);
  const { always, sometimes } = tableKeys(table, golden.dialect);
  return { missing: always.filter((key) => !answered.includes(key)), unnamed: answered.filter((key) => !always.includes(key) && !sometimes.includes(key)) };
}

/** Keys a table gives one dialect twice. */
export function repeatedKeys(table: FieldTable, dialect: Dialect): string[] {
  const { always, sometimes } = tableKeys(table, dialect);
  const all = [...always, ...sometimes];
  return all.filter((key, index) => all.indexOf(key) !== index);
}

/** Lines api/v1 or REST v2 writes with no OpenAPI shape. */
export function unshapedLines(table: FieldTable): string[] {
  return Object.entries(table)
    .filter(([, line]) => (line.apiV1 && !line.schema) || (line.restV2 && !line.restV2.schema && !line.schema))
    .map(([name]) => name);
}

/** Lines that are arguments but not stored: an argument with no column would be accepted and lost. */
export function unstoredArguments(table: FieldTable): string[] {
  return Object.entries(table)
    .filter(([, line]) => line.args && !line.column)
    .map(([name]) => name);
}
