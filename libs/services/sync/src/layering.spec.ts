import { relativeImports, sourceFiles } from '@doable/shared-testing';
import { relative, resolve } from 'node:path';

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
 * Lint holds the floors (each library's sync:* tag, eslint.config.mjs), and
 * libs/system/src/folder-circles.spec.ts that no two folders of a library import each other.
 * This spec holds what neither sees: no relative import leaves its library (across libraries
 * only by alias, which lint checks), and no dialect imports another.
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




describe.each(Object.entries(LIBRARIES))('the sync library %s', (_name, root) => {
  const files = sourceFiles(root, { specs: true });
  // A library's own test support (`testing/`, beside `src/`) is the library's too: its specs reach
  // their fixtures and harnesses there by a relative path (docs/testing.md).
  const testing = resolve(root, '../testing');
  const inside = (path: string): boolean => path.startsWith(`${root}/`) || path.startsWith(`${testing}/`);

  it('is found (guards against a test that checks nothing)', () => {
    expect(sourceFiles(root).length).toBeGreaterThan(3);
  });

  it('reaches other libraries only by their alias', () => {
    const leaving = files.flatMap((file) =>
      relativeImports(file)
        .filter((target) => !inside(target))
        .map((target) => `${relative(root, file)} -> ${relative(root, target)}`),
    );
    expect(leaving).toEqual([]);
  });

});

describe('the dialects', () => {
  const dialects = LIBRARIES['dialects'];

  it('keep each dialect in its own folder, importing only the shared parts and no other dialect', () => {
    // The folder a file sits in, or undefined for the registry beside them.
    const folderOf = (file: string): string | undefined => {
      const path = relative(dialects, file);
      // Outside src/ (the library's testing/ fixtures, shared by every dialect's spec) is no dialect.
      if (path.startsWith('..')) return undefined;
      const parts = path.split('/');
      return parts.length > 1 ? parts[0] : undefined;
    };
    const files = sourceFiles(dialects, { specs: true });
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
