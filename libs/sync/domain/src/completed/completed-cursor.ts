import { createHash } from 'node:crypto';
import { DomainError } from '@doable/shared-errors';
import type { CompletedQuery, CompletedSearch } from './completed-query';

/** Where the next page starts: after this (sort key, id) pair. */
export interface CompletedPosition {
  readonly key: string;
  readonly id: string;
}

/**
 * Opaque cursors, bound to the user and the query: replaying one for another user or another
 * query is refused rather than quietly answering the wrong page.
 */
function binding(userId: string, query: CompletedQuery | CompletedSearch): string {
  const fields =
    'by' in query
      ? [query.by, query.since.toISOString(), query.until.toISOString(), query.projectId, query.sectionId, query.parentId, query.filterQuery, query.filterLang, query.workspaceId]
      : ['search', query.query];
  // JSON keeps the fields apart whatever text a filter holds.
  const shape = JSON.stringify([userId, ...fields, query.limit]);
  return createHash('sha256').update(shape).digest('base64url').slice(0, 16);
}

export function encodeCursor(userId: string, query: CompletedQuery | CompletedSearch, position: CompletedPosition): string {
  return Buffer.from(JSON.stringify([binding(userId, query), position.key, position.id]), 'utf8').toString('base64url');
}

export function decodeCursor(userId: string, query: CompletedQuery | CompletedSearch, cursor: string): CompletedPosition {
  const invalid = new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid cursor', { argument: 'cursor' });
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
  if (!Array.isArray(parts) || parts.length !== 3 || parts[0] !== binding(userId, query) || typeof parts[1] !== 'string' || typeof parts[2] !== 'string' || !/^[0-9]+$/.test(parts[2])) {
    throw invalid;
  }
  return { key: parts[1], id: parts[2] };
}
