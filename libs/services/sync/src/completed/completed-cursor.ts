import { createHash } from 'node:crypto';
import { DomainError } from '@doable/shared-errors';
import type { CompletedQuery } from './completed-query';

/** Where the next page starts: after this (sort key, id) pair. */
export interface CompletedPosition {
  readonly key: string;
  readonly id: string;
}

/**
 * Opaque cursors, bound to the user and the query: replaying one for another user or another
 * query is refused rather than quietly answering the wrong page.
 */
function binding(userId: string, query: CompletedQuery): string {
  const shape = [userId, query.by, query.since.toISOString(), query.until.toISOString(), query.projectId, query.sectionId, query.parentId, query.limit].join('|');
  return createHash('sha256').update(shape).digest('base64url').slice(0, 16);
}

export function encodeCursor(userId: string, query: CompletedQuery, position: CompletedPosition): string {
  return Buffer.from(JSON.stringify([binding(userId, query), position.key, position.id]), 'utf8').toString('base64url');
}

export function decodeCursor(userId: string, query: CompletedQuery, cursor: string): CompletedPosition {
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
