import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Migrations are expand-then-contract: a release's migrations leave the previous release's code
 * working on the migrated schema, because during a rolling update it still runs there. A
 * migration only adds (tables, nullable columns or columns with defaults, indexes); what the
 * previous release reads or writes is removed, renamed, retyped or constrained only by a
 * contract step, a release after the code stopped using it.
 *
 * This reads a migration's SQL for the statements that would break the previous release. It is
 * a reading of text, not a parser: it errs on the side of flagging, and a contract step says
 * why its findings are safe.
 */
export interface ContractStep {
  readonly contractStep: {
    /** Which release stopped using what this removes (`1.3.0 no longer reads sync.items.legacy_order`). */
    readonly reason: string;
    /** What it drops or narrows: `schema.table` or `schema.table.column`; the schema check allows exactly these. */
    readonly drops: readonly string[];
  };
}

export function isContractStep(migration: MigrationInterface): migration is MigrationInterface & ContractStep {
  const step = (migration as Partial<ContractStep>).contractStep;
  return typeof step?.reason === 'string' && step.reason.trim().length > 0 && Array.isArray(step.drops) && step.drops.length > 0;
}

export type ExpandRule = 'drops' | 'renames' | 'retypes' | 'drops-default' | 'requires-column' | 'constrains';

export interface ExpandFinding {
  readonly rule: ExpandRule;
  readonly statement: string;
  readonly detail: string;
}

const DROPPED_OBJECTS = /\bdrop\s+(table|schema|view|materialized\s+view|type|function|sequence)\b/;
/** `ALTER TABLE t DROP [COLUMN] [IF EXISTS] c` (COLUMN is optional in PostgreSQL). */
const ALTER_DROP = /\bdrop\s+(?:column\s+)?(?:if\s+exists\s+)?([a-z_][a-z0-9_$]*)/g;
/** What may follow DROP inside ALTER TABLE without dropping a column. */
const NOT_A_COLUMN = new Set(['constraint', 'not', 'default', 'identity', 'expression', 'table', 'trigger', 'index']);

/** The statements of one `queryRunner.query` text: comments gone, identifiers unquoted, lower case, one space. */
function statementsOf(sql: string): string[] {
  const plain = sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    // Function bodies hold `;` and words of their own: what they say runs later, not now.
    .replace(/\$([a-z_]*)\$[\s\S]*?\$\1\$/gi, "''")
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/"/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ');
  return plain
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}

/** ALTER TABLE's actions, split on the commas outside parentheses. */
function actionsOf(alter: string): string[] {
  const actions: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < alter.length; i++) {
    const char = alter[i];
    if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ',' && depth === 0) {
      actions.push(alter.slice(start, i).trim());
      start = i + 1;
    }
  }
  actions.push(alter.slice(start).trim());
  return actions;
}

const tableName = (name: string) => name.replace(/^.*\./, '');

/** Every statement of a migration (the texts its `up` sends) that would break the previous release. */
export function expandFindings(sqlTexts: readonly string[]): ExpandFinding[] {
  const statements = sqlTexts.flatMap(statementsOf);
  // Tables made by this migration are new to the previous release too: it cannot be broken on them.
  const created = new Set(statements.flatMap((statement) => [...statement.matchAll(/\bcreate\s+(?:unlogged\s+)?table\s+(?:if\s+not\s+exists\s+)?([a-z0-9_.$]+)/g)].map((match) => tableName(match[1]))));
  const defaulted = new Set(statements.flatMap((statement) => [...statement.matchAll(/\balter\s+column\s+([a-z0-9_$]+)\s+set\s+default\b/g)].map((match) => match[1])));
  const findings: ExpandFinding[] = [];
  const flag = (rule: ExpandRule, statement: string, detail: string) => findings.push({ rule, statement, detail });

  for (const statement of statements) {
    const dropped = DROPPED_OBJECTS.exec(statement);
    if (dropped) flag('drops', statement, `drops a ${dropped[1]} the previous release may use`);
    if (/\brename\b/.test(statement) && !/^alter\s+index\b/.test(statement)) flag('renames', statement, 'renames what the previous release names');
    const unique = /^create\s+unique\s+index\s+(?:concurrently\s+)?(?:if\s+not\s+exists\s+)?(?:[a-z0-9_$]+\s+)?on\s+(?:only\s+)?([a-z0-9_.$]+)/.exec(statement);
    if (unique && !created.has(tableName(unique[1]))) flag('constrains', statement, 'a new unique index may refuse rows the previous release writes');

    const alter = /^alter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?([a-z0-9_.$]+)\s+(.*)$/.exec(statement);
    if (!alter) continue;
    const isNew = created.has(tableName(alter[1]));
    for (const action of actionsOf(alter[2])) {
      for (const match of action.matchAll(ALTER_DROP)) {
        if (match[1] === 'default') flag('drops-default', statement, "drops a default the previous release's inserts rely on");
        else if (!NOT_A_COLUMN.has(match[1]) && !/^drop\s+(constraint|not)\b/.test(action)) flag('drops', statement, `drops column ${match[1]}`);
      }
      const retyped = /\balter\s+(?:column\s+)?([a-z0-9_$]+)\s+(?:set\s+data\s+)?type\b/.exec(action);
      if (retyped) flag('retypes', statement, `changes the type of ${retyped[1]}`);
      const required = /\balter\s+(?:column\s+)?([a-z0-9_$]+)\s+set\s+not\s+null\b/.exec(action);
      if (required && !defaulted.has(required[1])) flag('requires-column', statement, `${required[1]} becomes NOT NULL without a default: the previous release's inserts may leave it out`);
      const added = /^add\s+(?:column\s+)?(?:if\s+not\s+exists\s+)?([a-z0-9_$]+)\s+(.*)$/.exec(action);
      if (added && !['constraint', 'check', 'unique', 'primary', 'foreign', 'exclude'].includes(added[1])) {
        const definition = added[2];
        if (!isNew && /\bnot\s+null\b/.test(definition) && !/\b(default|generated)\b/.test(definition)) {
          flag('requires-column', statement, `${added[1]} is new and NOT NULL without a default: the previous release's inserts leave it out`);
        }
      }
      if (!isNew && /^add\s+(?:constraint\s+[a-z0-9_$]+\s+)?(check|unique|primary\s+key|foreign\s+key|exclude)\b/.test(action)) {
        flag('constrains', statement, "a new constraint may refuse rows the previous release writes");
      }
    }
  }
  return findings;
}

/**
 * The SQL a migration's `up` sends, without a database: every migration here speaks through
 * `queryRunner.query` alone (none reads a result to decide what to run next).
 */
export async function upStatements(migration: MigrationInterface): Promise<string[]> {
  const sent: string[] = [];
  const recorder = {
    query: (sql: string) => {
      sent.push(sql);
      return Promise.resolve([]);
    },
  } as unknown as QueryRunner;
  await migration.up(recorder);
  return sent;
}
