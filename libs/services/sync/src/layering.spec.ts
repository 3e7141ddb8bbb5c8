import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The sync service is several libraries, each a floor of its own, imports pointing down:
 *
 *   libs/services/sync     the service: transports and features (rpc/, consumers/, objects/, ...)
 *   libs/sync/dialects     one folder per API version: parse requests, render canonical objects
 *   libs/sync/engine       the commands and the request they run in
 *   libs/sync/read         sources, resource types, sync tokens: canonical rows, never a version's shape
 *   libs/sync/domain       models, repositories, membership (one folder per resource)
 *   libs/sync/dates, libs/sync/filter-language   pure: no Nest, no database
 *
 * Lint holds the floors (each library's sync:* tag, eslint.config.mjs). This spec holds what
 * lint cannot see: no relative import leaves its library (across libraries only by alias, which
 * lint checks), no two folders of a library import each other (directly or around a circle),
 * and no dialect imports another.
 */
const sync = resolve(__dirname, '..');
const LIBRARIES: Readonly<Record<string, string>> = {
  service: sync,
  dialects: resolve(__dirname, '../../../sync/dialects/src'),
  engine: resolve(__dirname, '../../../sync/engine/src'),
  read: resolve(__dirname, '../../../sync/read/src'),
  domain: resolve(__dirname, '../../../sync/domain/src'),
  dates: resolve(__dirname, '../../../sync/dates/src'),
  'filter-language': resolve(__dirname, '../../../sync/filter-language/src'),
};

/** What every dialect may build on: the shapes v9 and api/v1 share, and the ones the older generations share. */
const SHARED_DIALECT_PARTS: ReadonlySet<string> = new Set(['shared', 'legacy']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The files a file imports by a relative path; a folder import (`../items`) is its index. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((match) => {
    const target = resolve(dirname(file), match[1]);
    return existsSync(target) && statSync(target).isDirectory() ? join(target, 'index.ts') : target;
  });
}

const isSpec = (file: string): boolean => /\.(spec|integration-spec)\.ts$/.test(file);

describe.each(Object.entries(LIBRARIES))('the sync library %s', (_name, root) => {
  const files = sourceFiles(root);
  const inside = (path: string): boolean => path.startsWith(`${root}/`);

  it('is found (guards against a test that checks nothing)', () => {
    expect(files.filter((file) => !isSpec(file)).length).toBeGreaterThan(3);
  });

  it('reaches other libraries only by their alias', () => {
    const leaving = files.flatMap((file) =>
      relativeImports(file)
        .filter((target) => !inside(target))
        .map((target) => `${relative(root, file)} -> ${relative(root, target)}`),
    );
    expect(leaving).toEqual([]);
  });

  it('has no circle between its folders', () => {
    const folderOf = (file: string): string => relative(root, file).split('/').slice(0, -1)[0] ?? '.';
    const arrows = new Map<string, Set<string>>();
    // The library's entry points (index.ts, testing.ts) re-export its folders: they are no folder's member.
    const entries = new Set([join(root, 'index.ts'), join(root, 'testing.ts')]);
    for (const file of files.filter((candidate) => !isSpec(candidate) && !entries.has(candidate))) {
      for (const target of relativeImports(file).filter(inside)) {
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

describe('the dialects', () => {
  const dialects = LIBRARIES['dialects'];

  it('keep each dialect in its own folder, importing only the shared parts and no other dialect', () => {
    // The folder a file sits in, or undefined for the registry beside them.
    const folderOf = (file: string): string | undefined => {
      const parts = relative(dialects, file).split('/');
      return parts.length > 1 ? parts[0] : undefined;
    };
    const files = sourceFiles(dialects);
    expect(new Set(files.map(folderOf)).size).toBeGreaterThan(6);
    const crossing = files
      .filter((file) => folderOf(file) !== undefined)
      .flatMap((file) =>
        relativeImports(file)
          .map((target) => folderOf(target))
          .filter((folder) => folder !== undefined && folder !== folderOf(file) && !SHARED_DIALECT_PARTS.has(folder))
          .map((folder) => `${relative(dialects, file)} -> ${folder}`),
      );
    expect(crossing).toEqual([]);
  });
});
