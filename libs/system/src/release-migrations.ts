import { expandFindings, type ExpandFinding, isContractStep, upStatements } from '@doable/shared-database';
import type { MigrationInterface } from 'typeorm';
import { ALL_SERVICES } from './all-services';

export type MigrationClass = new () => MigrationInterface;

/** Each data-owning schema's migrations at HEAD, in the order they run. */
export function migrationClasses(): Map<string, readonly MigrationClass[]> {
  const bySchema = new Map<string, readonly MigrationClass[]>();
  for (const definition of ALL_SERVICES) {
    if (definition.database) bySchema.set(definition.database.schema, definition.database.migrations as unknown as readonly MigrationClass[]);
  }
  return bySchema;
}

/** What a release record keeps of the migrations: each schema's migration names, in order. */
export function releaseMigrations(): Record<string, string[]> {
  return Object.fromEntries([...migrationClasses()].sort(([a], [b]) => a.localeCompare(b)).map(([schema, migrations]) => [schema, migrations.map((migration) => migration.name)]));
}

export interface UnsafeMigration {
  readonly schema: string;
  readonly migration: string;
  readonly findings: readonly ExpandFinding[];
}

/** What the contract steps HEAD has beyond a release's (`released`) drop: `schema.table[.column]`. */
export function droppedByContractSteps(released: Readonly<Record<string, readonly string[]>>, bySchema = migrationClasses()): string[] {
  const dropped: string[] = [];
  for (const [schema, migrations] of bySchema) {
    const shipped = new Set(released[schema] ?? []);
    for (const Migration of migrations) {
      const migration = new Migration();
      if (!shipped.has(Migration.name) && isContractStep(migration)) dropped.push(...migration.contractStep.drops);
    }
  }
  return dropped;
}

/**
 * The migrations HEAD has beyond a release's (`released`: schema -> names) that would break that
 * release's code on the migrated schema: anything but expand-only, unless it is a contract step.
 */
export async function unsafeMigrationsSince(released: Readonly<Record<string, readonly string[]>>, bySchema = migrationClasses()): Promise<UnsafeMigration[]> {
  const unsafe: UnsafeMigration[] = [];
  for (const [schema, migrations] of bySchema) {
    const shipped = new Set(released[schema] ?? []);
    for (const Migration of migrations) {
      if (shipped.has(Migration.name)) continue;
      const migration = new Migration();
      if (isContractStep(migration)) continue;
      const findings = expandFindings(await upStatements(migration));
      if (findings.length > 0) unsafe.push({ schema, migration: Migration.name, findings });
    }
  }
  return unsafe;
}
