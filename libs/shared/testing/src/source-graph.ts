import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

// What the structure specs read of the source tree (libs/system/src/import-circles.spec.ts,
// folder-circles.spec.ts, libs/services/sync/src/layering.spec.ts): its files, their relative
// imports, and the circles in a graph of them.

const SPEC = /\.(spec|integration-spec|e2e-spec)\.ts$/;

/** The TypeScript files under `dir`, specs left out unless `specs` (they are leaves nothing imports). */
export function sourceFiles(dir: string, { specs = false }: { specs?: boolean } = {}): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path, { specs });
    return name.endsWith('.ts') && !name.endsWith('.d.ts') && (specs || !SPEC.test(name)) ? [path] : [];
  });
}

/** The files a file imports by a relative path (without `.ts`); a folder import (`../items`) is its index. */
export function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from |import |import\()'(\.{1,2}\/[^']+)'/g)].map((match) => {
    const target = resolve(dirname(file), match[1]);
    return existsSync(target) && statSync(target).isDirectory() ? join(target, 'index.ts') : target;
  });
}

/** The nodes that stand on a circle, one sorted group per circle (Tarjan's strongly connected groups of more than one). */
export function circles(arrows: ReadonlyMap<string, Iterable<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of arrows.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of arrows.keys()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}
