import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !/\.(spec|integration-spec|e2e-spec)\.ts$/.test(name) ? [path] : [];
  });
}

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

/** The strongly connected groups of more than one file (Tarjan's algorithm). */
function circles(arrows: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of arrows.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) found.push(group.map((path) => relative(repoRoot, path)).sort());
  };
  for (const file of arrows.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('imports between source files', () => {
  const files = ['apps', 'libs'].flatMap((dir) => sourceFiles(join(repoRoot, dir)));
  const arrows = new Map(files.map((file) => [file, importsOf(file).filter((target) => target !== file)]));

  it('reads the whole source tree (guards against a test that checks nothing)', () => {
    expect(files.length).toBeGreaterThan(500);
    expect([...arrows.values()].filter((targets) => targets.length > 0).length).toBeGreaterThan(400);
  });

  it('never run around a circle', () => {
    expect(circles(arrows)).toEqual([]);
  });
});
