import { createHash } from 'node:crypto';
import type { Page } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import type { RestCall } from './rest-call';
import { optionalInt, optionalString } from './rest-args';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

interface CursorBody {
  /** The user the cursor was issued to. */
  readonly u: string;
  /** A digest of the operation and its parameters (cursor and limit aside). */
  readonly p: string;
  /** Where the next page starts. */
  readonly o: number;
}

/** The parameters a cursor is bound to: the endpoint and every query argument but the paging ones. */
function parametersDigest(call: RestCall): string {
  const bound = Object.entries(call.query)
    .filter(([name]) => name !== 'cursor' && name !== 'limit')
    .sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256')
    .update(JSON.stringify([call.operation, call.params, bound]))
    .digest('base64url')
    .slice(0, 16);
}

function invalidCursor(): DomainError {
  return new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: cursor (not issued for this user and these parameters)', { argument: 'cursor' });
}

/**
 * api/v1 pagination (`limit` 1..200, default 50; an opaque `cursor`). A cursor only works for
 * the user and the parameters it was issued for; anything else is a coded 400.
 */
export function requestedPage(call: RestCall): Page {
  const limit = optionalInt(call.query, 'limit', { min: 1 }) ?? DEFAULT_PAGE_SIZE;
  if (limit > MAX_PAGE_SIZE) {
    throw new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: limit (at most ${MAX_PAGE_SIZE})`, { argument: 'limit', expected: `<= ${MAX_PAGE_SIZE}` });
  }
  const cursor = optionalString(call.query, 'cursor', 512);
  if (cursor === undefined || cursor === '') return { limit, offset: 0 };
  let body: Partial<CursorBody>;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorBody>;
  } catch {
    throw invalidCursor();
  }
  if (body.u !== call.principal.userId || body.p !== parametersDigest(call) || typeof body.o !== 'number' || !Number.isSafeInteger(body.o) || body.o < 0) {
    throw invalidCursor();
  }
  return { limit, offset: body.o };
}

/** The cursor of the page after `page`, or null when there is none. */
export function nextCursor(call: RestCall, page: Page, hasMore: boolean): string | null {
  if (!hasMore) return null;
  const body: CursorBody = { u: call.principal.userId, p: parametersDigest(call), o: page.offset + page.limit };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}
