import { circles, sourceFiles } from '@doable/shared-testing';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * No source file reaches itself by following its imports, types included, anywhere in apps/ and
 * libs/: a circle makes a reader hold the whole ring at once, and the order its modules load in
 * decides which of them sees the others still undefined. Relative imports and the workspace's
 * path aliases (tsconfig.base.json, each to its library's index) are followed; specs are not
 * counted (they are leaves nothing imports).
 */
const repoRoot = resolve(__dirname, '../../..');
const aliases: Record<string, [string]> = (JSON.parse(readFileSync(join(repoRoot, 'tsconfig.base.json'), 'utf8')) as { compilerOptions: { paths: Record<string, [string]> } })
  .compilerOptions.paths;
const aliasTargets = new Map(Object.entries(aliases).map(([alias, [target]]) => [alias, join(repoRoot, target)]));


function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from '([^']+)'/g)].flatMap(([, specifier]) => {
    const aliased = aliasTargets.get(specifier);
    if (aliased) return [aliased];
    if (!specifier.startsWith('.')) return [];
    const base = resolve(dirname(file), specifier);
    return [`${base}.ts`, join(base, 'index.ts')].filter((candidate) => existsSync(candidate)).slice(0, 1);
  });
}


describe('imports between source files', () => {
  const files = ['apps', 'libs'].flatMap((dir) => sourceFiles(join(repoRoot, dir)));
  const arrows = new Map(files.map((file) => [file, importsOf(file).filter((target) => target !== file)]));

  it('reads the whole source tree (guards against a test that checks nothing)', () => {
    expect(files.length).toBeGreaterThan(500);
    expect([...arrows.values()].filter((targets) => targets.length > 0).length).toBeGreaterThan(400);
  });

  it('never run around a circle', () => {
    expect(circles(arrows).map((group) => group.map((path) => relative(repoRoot, path)))).toEqual([]);
  });
});
