import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The sync library's import arrows point down, so a reader can take each wing alone:
 *
 *   transports and features (rpc/, consumers/, push/, quick-add/, objects/, completed-history/,
 *   templates/, activity/, backups/, reminder-firing/, portability/, access-policy/, the service
 *   definition)
 *     -> dialects/  (one folder per API version: parse requests, render canonical objects)
 *       -> engine/  (commands and the sync request they run in)
 *         -> read/  (sources, resource types, sync tokens: canonical rows, never a version's shape)
 *           -> the domain: one folder per resource (models, repositories), on the pure libraries
 *              @doable/sync-dates and @doable/sync-filter-language (libs/sync/)
 *
 * A file may import its own layer and the layers below it, never one above; and no two folders
 * import each other, directly or around a circle (membership/ holds what projects and workspaces
 * both read, so the resource folders stand in one order).
 */
const LAYERS: ReadonlyArray<readonly string[]> = [
  ['rpc', 'consumers', 'push', 'quick-add', 'objects', 'completed-history', 'templates', 'activity', 'backups', 'reminder-firing', 'portability', 'access-policy', '.'],
  ['dialects'],
  ['engine'],
  ['read'],
];
const DOMAIN_RANK = LAYERS.length;

/** What every dialect may build on: the shapes v9 and api/v1 share, and the ones the older generations share. */
const SHARED_DIALECT_PARTS: ReadonlySet<string> = new Set(['shared', 'legacy']);

const root = __dirname;

function rankOf(file: string): number {
  const top = relative(root, file).split('/');
  const folder = top.length === 1 ? '.' : top[0];
  const rank = LAYERS.findIndex((layer) => layer.includes(folder));
  return rank === -1 ? DOMAIN_RANK : rank;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The files a file imports from this library; a folder import (`../items`) is its index. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((match) => {
    const target = resolve(dirname(file), match[1]);
    return existsSync(target) && statSync(target).isDirectory() ? join(target, 'index.ts') : target;
  });
}

describe('sync library layering', () => {
  const files = sourceFiles(root);

  it('finds the library (guards against a test that checks nothing)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((file) => rankOf(file) === DOMAIN_RANK)).toBe(true);
  });

  it('has no import that runs back up a layer', () => {
    const upward = files.flatMap((file) =>
      relativeImports(file)
        .filter((target) => target.startsWith(root) && rankOf(target) < rankOf(file))
        .map((target) => `${relative(root, file)} -> ${relative(root, target)}`),
    );
    expect(upward).toEqual([]);
  });

  it('keeps each dialect in its own folder, importing only the shared parts and no other dialect', () => {
    const dialects = join(root, 'dialects');
    // The folder a file sits in under dialects/, or undefined for the interface and the registry beside them.
    const folderOf = (file: string): string | undefined => {
      const parts = relative(dialects, file).split('/');
      return parts.length > 1 ? parts[0] : undefined;
    };
    const crossing = files
      .filter((file) => file.startsWith(dialects) && folderOf(file) !== undefined)
      .flatMap((file) =>
        relativeImports(file)
          .filter((target) => target.startsWith(dialects))
          .map((target) => folderOf(target))
          .filter((folder) => folder !== undefined && folder !== folderOf(file) && !SHARED_DIALECT_PARTS.has(folder))
          .map((folder) => `${relative(root, file)} -> dialects/${folder}`),
      );
    expect(crossing).toEqual([]);
  });

  it('has no circle between folders', () => {
    const folderOf = (file: string): string => relative(root, file).split('/').slice(0, -1)[0] ?? '.';
    const arrows = new Map<string, Set<string>>();
    for (const file of files.filter((candidate) => !/\.(spec|integration-spec)\.ts$/.test(candidate))) {
      for (const target of relativeImports(file).filter((path) => path.startsWith(root))) {
        if (folderOf(target) === folderOf(file)) continue;
        arrows.set(folderOf(file), (arrows.get(folderOf(file)) ?? new Set()).add(folderOf(target)));
      }
    }
    // A folder that reaches itself by following the arrows is on a circle.
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      [...(arrows.get(from) ?? [])].some((next) => next === to || (!seen.has(next) && seen.add(next) && reaches(next, to, seen)));
    expect([...arrows.keys()].filter((folder) => reaches(folder, folder)).sort()).toEqual([]);
  });
});
