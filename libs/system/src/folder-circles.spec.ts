import { circles, relativeImports, sourceFiles } from '@doable/shared-testing';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * Inside every Nx project (a project.json under apps/ or libs/), the top-level folders of src/
 * stand in one order: no two import each other, directly or around a circle. A folder is a
 * floor a reader can take in alone only if nothing it imports imports it back; a circle turns
 * the folders on it into one floor with several names.
 *
 * Only relative imports count (other projects are reached by alias, which lint's tags order).
 * Specs count as members of the folder they sit in (issue #46: fixtures inside src/ tied whole
 * folders into circles once specs were counted). So a spec that drives several folders lives in
 * the project's `test/` folder, and fixtures and harnesses in its `testing/` folder (the
 * project's testing entry, `testing/index.ts` where other projects use it), both outside src/.
 * The project's entry points (src/index.ts, and a second entry tsconfig.base.json names, such as
 * contracts-sync's types-only `wire`) re-export its folders and are no folder's member; the other
 * files directly in src/ form the folder ".".
 */
const repoRoot = resolve(__dirname, '../../..');

/** Every file tsconfig.base.json names as an entry of a project (`@doable/<name>[/<entry>]`). */
const ENTRIES: ReadonlySet<string> = new Set(
  Object.values((JSON.parse(readFileSync(join(repoRoot, 'tsconfig.base.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths)
    .flat()
    .map((path) => resolve(repoRoot, path)),
);

function projectRoots(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name.startsWith('.') || !statSync(path).isDirectory()) return [];
    return existsSync(join(path, 'project.json')) ? [path, ...projectRoots(path)] : projectRoots(path);
  });
}



/** Which top-level folder of src/ imports which, for one project. */
function folderArrows(src: string): Map<string, Set<string>> {
  if (!existsSync(src)) return new Map();
  const folderOf = (file: string): string => relative(src, file).split('/').slice(0, -1)[0] ?? '.';
  const arrows = new Map<string, Set<string>>();
  for (const file of sourceFiles(src, { specs: true }).filter((candidate) => candidate !== join(src, 'index.ts') && !ENTRIES.has(candidate))) {
    for (const target of relativeImports(file).filter((path) => path.startsWith(`${src}/`))) {
      if (folderOf(target) === folderOf(file)) continue;
      arrows.set(folderOf(file), (arrows.get(folderOf(file)) ?? new Set()).add(folderOf(target)));
    }
  }
  return arrows;
}


describe('folders inside each project', () => {
  const projects = ['apps', 'libs']
    .flatMap((dir) => projectRoots(join(repoRoot, dir)))
    .map((root) => relative(repoRoot, root))
    .sort();
  const arrowsOf = new Map(projects.map((project) => [project, folderArrows(join(repoRoot, project, 'src'))]));

  it('are read for every project (guards against a test that checks nothing)', () => {
    expect(projects.length).toBeGreaterThan(30);
    expect(projects).toEqual(expect.arrayContaining(['apps/gateway', 'libs/shared/runtime', 'libs/services/sync', 'libs/sync/engine']));
    expect([...arrowsOf.values()].filter((arrows) => arrows.size > 0).length).toBeGreaterThan(12);
  });

  it.each(projects)('of %s stand in one order (no circle)', (project) => {
    expect(circles(arrowsOf.get(project)!)).toEqual([]);
  });

  it('hold no fixture or harness: those live in the project\'s testing/ folder, outside src/', () => {
    const TEST_SUPPORT = /\.(fixture|harness)\.ts$|\/src\/testing(\.ts|\/)/;
    const misplaced = projects
      .filter((project) => project !== 'libs/shared/testing') // the test kit is itself a library of test support
      .flatMap((project) => (existsSync(join(repoRoot, project, 'src')) ? sourceFiles(join(repoRoot, project, 'src'), { specs: true }) : []))
      .map((file) => relative(repoRoot, file))
      .filter((file) => TEST_SUPPORT.test(file));
    expect(misplaced).toEqual([]);
  });
});
