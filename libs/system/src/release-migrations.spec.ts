import { join } from 'node:path';
import { readReleaseRecords, releasesToKeep } from '@doable/contracts-releases';
import { PRODUCT_VERSION } from '@doable/shared-logging';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { droppedByContractSteps, type MigrationClass, releaseMigrations, unsafeMigrationsSince } from './release-migrations';

/** A migration class sending these statements from `up`, optionally a contract step. */
function migration(name: string, sql: string[], contractStep?: { reason: string; drops: string[] }): MigrationClass {
  const made = class implements MigrationInterface {
    name = name;
    contractStep = contractStep;
    async up(queryRunner: QueryRunner): Promise<void> {
      for (const statement of sql) await queryRunner.query(statement);
    }
    down(): Promise<void> {
      return Promise.resolve();
    }
  };
  Object.defineProperty(made, 'name', { value: name });
  return made;
}

/**
 * Migrations are expand-then-contract (shared-database expand-only.ts): every migration HEAD has
 * beyond a release's leaves that release's code working, unless it is a contract step that says
 * why what it drops is no longer used.
 */
const records = readReleaseRecords(join(__dirname, '..', '..', '..', 'contracts', 'releases'));

describe('migrations since each release this one must run beside', () => {
  const keep = releasesToKeep(records, PRODUCT_VERSION);

  it('has a release to compare with', () => {
    expect(keep.length).toBeGreaterThan(0);
  });

  it.each(keep.map((record) => [record.release, record] as const))("keep every migration release %s shipped, under the same name", (_release, record) => {
    const head = releaseMigrations();
    const lost = Object.entries(record.migrations).flatMap(([schema, names]) => names.filter((name) => !(head[schema] ?? []).includes(name)).map((name) => `${schema}: ${name}`));
    expect(lost).toEqual([]);
  });

  it.each(keep.map((record) => [record.release, record] as const))('are expand-only since release %s', async (_release, record) => {
    await expect(unsafeMigrationsSince(record.migrations)).resolves.toEqual([]);
  });

  it('reads the real migrations: checked as if no release had shipped, the history before 1.0.0 shows its narrowings', async () => {
    // PublicOauthClients adds a CHECK to auth.oauth_apps that a release before it could violate
    // (a console app without an owner): after a release that is a contract step of its own.
    const unsafe = await unsafeMigrationsSince({});
    expect(unsafe).toEqual(
      expect.arrayContaining([{ schema: 'auth', migration: 'PublicOauthClients1764080000000', findings: [expect.objectContaining({ rule: 'constrains', statement: expect.stringContaining('add constraint oauth_apps_kind check') })] }]),
    );
  });

  it('checks only what came after the release, and lets a contract step drop what it names', async () => {
    const released = { plans: ['Create1'] };
    const bySchema = new Map([
      [
        'plans',
        [
          migration('Create1', ['CREATE TABLE plans.t (a text, b text)', 'ALTER TABLE plans.t DROP COLUMN zz']),
          migration('AddC2', ['ALTER TABLE plans.t ADD COLUMN c text']),
          migration('DropB3', ['ALTER TABLE plans.t DROP COLUMN b'], { reason: '1.0.0 no longer reads plans.t.b', drops: ['plans.t.b'] }),
          migration('DropA4', ['ALTER TABLE plans.t DROP COLUMN a']),
        ],
      ],
    ]);
    await expect(unsafeMigrationsSince(released, bySchema)).resolves.toEqual([{ schema: 'plans', migration: 'DropA4', findings: [expect.objectContaining({ rule: 'drops', detail: 'drops column a' })] }]);
    expect(droppedByContractSteps(released, bySchema)).toEqual(['plans.t.b']);
  });
});
