import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Repositories reach the code that uses them through Nest's injector (a module's providers),
 * never by `new`: a second instance is a second place to wire, and a hand-made default hides a
 * dependency from the module (issue #46). Specs, harnesses and testing libraries may build them.
 * The operator CLI, which has no service module, builds its services in a module of its own
 * (apps/cli/src/operator-services.ts).
 */
const ROOT = join(__dirname, '..', '..', '..');
const NEW_REPOSITORY = /new [A-Z][A-Za-z]*Repository\(/;
const NOT_PRODUCTION = /(\.spec\.ts|\.integration-spec\.ts|\.e2e-spec\.ts|\.harness\.ts)$|\/testing(\/|\.ts$)/;

function productionFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : productionFiles(path);
    return entry.name.endsWith('.ts') && !NOT_PRODUCTION.test(path) ? [path] : [];
  });
}

describe('repositories come from the injector', () => {
  const files = [...productionFiles(join(ROOT, 'libs')), ...productionFiles(join(ROOT, 'apps'))];
  const making = files.filter((file) => NEW_REPOSITORY.test(readFileSync(file, 'utf8'))).map((file) => relative(ROOT, file));

  it('reads the production sources (guards against a test that checks nothing)', () => {
    expect(files.length).toBeGreaterThan(500);
  });

  it('no production file makes a repository with new', () => {
    expect(making).toEqual([]);
  });
});
