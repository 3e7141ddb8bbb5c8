import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FieldTable, LegacyKey } from './field-line';
import { z } from 'zod';
import { TASK_ADD_ARGS, TASK_FIELDS, TASK_UPDATE_ARGS } from './task-fields';

/**
 * The task table against the golden answers: the keys each dialect's task has in the answers
 * the e2e suite records (e2e/golden/*.keys.json, checked against live responses by
 * dialect-golden.e2e-spec.ts and rest-golden.e2e-spec.ts) are the keys the table names for it.
 * The writers of api/v1, v9 and REST v2 are derived from the table; the legacy ones (v8, v7,
 * REST v1) are written by hand, and this is what holds them to it.
 */

type Dialect = 'apiV1' | 'v9' | 'restV2' | 'v8' | 'v7' | 'restV1';

const GOLDEN: ReadonlyArray<{ dialect: Dialect; file: string; resource: string }> = [
  { dialect: 'apiV1', file: 'sync-api-v1.keys.json', resource: 'items' },
  { dialect: 'apiV1', file: 'rest-api-v1.keys.json', resource: 'task' },
  { dialect: 'v9', file: 'sync-v9.keys.json', resource: 'items' },
  { dialect: 'restV2', file: 'rest-v2.keys.json', resource: 'task' },
  { dialect: 'v8', file: 'sync-v8.keys.json', resource: 'items' },
  { dialect: 'v7', file: 'sync-v7.keys.json', resource: 'items' },
  { dialect: 'restV1', file: 'rest-v1.keys.json', resource: 'task' },
];

function goldenKeys(file: string, resource: string): string[] {
  const golden = JSON.parse(readFileSync(join(__dirname, '../../../../../e2e/golden', file), 'utf8')) as Record<string, string[]>;
  return golden[resource] ?? [];
}

/** The keys a table gives a dialect: `always` written on every object, `sometimes` left out when empty. */
function tableKeys(table: FieldTable, dialect: Dialect): { always: string[]; sometimes: string[] } {
  const keys: LegacyKey[] = Object.values(table).flatMap((line) => {
    if (dialect === 'apiV1' || dialect === 'v9') return line[dialect] === undefined ? [] : [line[dialect]];
    if (dialect === 'restV2') return line.restV2 ? [line.restV2.key] : [];
    return line[dialect] ?? [];
  });
  return { always: keys.filter((key) => !key.endsWith('?')), sometimes: keys.filter((key) => key.endsWith('?')).map((key) => key.slice(0, -1)) };
}

describe('the task field table', () => {
  it.each(GOLDEN)('names the keys of the $dialect task in $file', ({ dialect, file, resource }) => {
    const golden = goldenKeys(file, resource);
    expect(golden.length).toBeGreaterThan(0);
    const { always, sometimes } = tableKeys(TASK_FIELDS, dialect);
    // Every key the table says is always written is in the answer; every key in the answer is in the table.
    expect(always.filter((key) => !golden.includes(key))).toEqual([]);
    expect(golden.filter((key) => !always.includes(key) && !sometimes.includes(key))).toEqual([]);
  });

  it('gives each dialect a key once', () => {
    for (const dialect of ['apiV1', 'v9', 'restV2', 'v8', 'v7', 'restV1'] as const) {
      const { always, sometimes } = tableKeys(TASK_FIELDS, dialect);
      const all = [...always, ...sometimes];
      expect(all.filter((key, index) => all.indexOf(key) !== index)).toEqual([]);
    }
  });

  it('gives an OpenAPI shape to every field api/v1 or REST v2 writes', () => {
    const lines: FieldTable = TASK_FIELDS;
    const unshaped = Object.entries(lines).filter(([, line]) => (line.apiV1 && !line.schema) || (line.restV2 && !line.restV2.schema && !line.schema));
    expect(unshaped.map(([name]) => name)).toEqual([]);
  });

  it('takes as item_add and item_update arguments the fields a client may set', () => {
    expect(Object.keys(TASK_ADD_ARGS).sort()).toEqual(
      ['assigned_by_uid', 'child_order', 'content', 'day_order', 'deadline', 'description', 'due', 'duration', 'is_collapsed', 'labels', 'parent_id', 'priority', 'project_id', 'responsible_uid', 'section_id'].sort(),
    );
    expect(Object.keys(TASK_UPDATE_ARGS).sort()).toEqual(['assigned_by_uid', 'content', 'day_order', 'deadline', 'description', 'due', 'duration', 'is_collapsed', 'labels', 'priority', 'responsible_uid'].sort());
    // A field that is an argument is stored: an argument with no column would be accepted and lost.
    const lines: FieldTable = TASK_FIELDS;
    expect(Object.entries(lines).filter(([, line]) => line.args && !line.column)).toEqual([]);
  });

  it('gives a value to every NOT NULL column item_add writes from its arguments, but those the command places or computes itself', () => {
    // item_add writes an argument it does nothing special with as parsed (argValues), and an
    // absent one as null: a NOT NULL line must give its add schema a default, or the INSERT fails.
    const parsed = z.object(TASK_ADD_ARGS).parse({ content: 'x' }) as Record<string, unknown>;
    const lines: FieldTable = TASK_FIELDS;
    const unset = Object.entries(lines).filter(([name, line]) => line.args?.add && line.column && !line.column.nullable && parsed[name] === undefined);
    expect(unset.map(([name]) => name)).toEqual(['project_id', 'labels', 'child_order', 'is_collapsed']);
  });
});
