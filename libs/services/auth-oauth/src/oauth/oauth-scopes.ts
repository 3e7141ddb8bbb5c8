import { type Scope, SCOPES } from '@doable/contracts-common';

/** What each scope lets an application do, in the words the consent page uses. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  'task:add': 'Add new tasks (without reading your data)',
  'data:read': 'Read your tasks, projects, labels and filters',
  'data:read_write': 'Read and change your tasks, projects, labels and filters',
  'data:delete': 'Delete your tasks, labels and filters',
  'project:delete': 'Delete your projects',
  'backups:read': 'List and download your backups',
};

/**
 * The scopes of a `scope` parameter (comma-separated per the protocol; spaces are accepted too,
 * as RFC 6749 writes them), de-duplicated in catalogue order; undefined when it is empty or
 * names a scope that does not exist.
 */
export function parseScopes(raw: unknown): Scope[] | undefined {
  if (typeof raw !== 'string') return undefined;
  const names = raw.split(/[\s,]+/).filter((name) => name.length > 0);
  if (names.length === 0) return undefined;
  if (!names.every((name): name is Scope => (SCOPES as readonly string[]).includes(name))) return undefined;
  return SCOPES.filter((scope) => names.includes(scope));
}
