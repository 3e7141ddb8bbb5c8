import type { DomainError, TodoistErrorBody } from '@doable/shared-errors';

/**
 * How the first generation refused: HTTP 400 (or the status noted) with a JSON string body,
 * e.g. `"ERROR_PROJECT_NOT_FOUND"` (the help text's error list; clients compare the body with
 * these strings: pytodoist's ERROR_TEXT_RESPONSES, the Ruby client's ERRORS). Tags marked
 * "ours" are not in that list: the old server had no answer for the case, or none we found.
 */
export const FIRST_GENERATION_TAGS = {
  LOGIN_ERROR: 'LOGIN_ERROR',
  PROJECT_NOT_FOUND: 'ERROR_PROJECT_NOT_FOUND',
  ITEM_NOT_FOUND: 'ERROR_ITEM_NOT_FOUND',
  NAME_IS_EMPTY: 'ERROR_NAME_IS_EMPTY',
  WRONG_DATE_SYNTAX: 'ERROR_WRONG_DATE_SYNTAX',
  UNKNOWN_ERROR: 'UNKNOWN_ERROR',
  /** Ours: a required parameter (ids, queries, email) is absent. */
  ARGUMENT_MISSING: 'ERROR_ARGUMENT_MISSING',
  /** Ours: a parameter is present but unreadable (not JSON, not a list, not an id). */
  INVALID_ARGUMENT: 'ERROR_INVALID_ARGUMENT',
  /** Ours: the token may not do this (an OAuth token without the scope). */
  FORBIDDEN: 'ERROR_FORBIDDEN',
  /** Ours: a JSONP callback name outside the accepted rule. */
  INVALID_CALLBACK: 'ERROR_INVALID_CALLBACK',
} as const;
export type FirstGenerationTag = (typeof FIRST_GENERATION_TAGS)[keyof typeof FIRST_GENERATION_TAGS];

/** A refusal in the first generation's form: an HTTP status and the tag sent as a JSON string. */
export class FirstGenerationRefusal extends Error {
  constructor(
    readonly status: number,
    readonly tag: FirstGenerationTag,
    /** For the operator and the tests; never sent (the old clients read the tag only). */
    readonly reason: string,
  ) {
    super(`${tag}: ${reason}`);
  }

  static missing(argument: string): FirstGenerationRefusal {
    return new FirstGenerationRefusal(400, FIRST_GENERATION_TAGS.ARGUMENT_MISSING, `Required argument is missing: ${argument}`);
  }

  static invalid(argument: string): FirstGenerationRefusal {
    return new FirstGenerationRefusal(400, FIRST_GENERATION_TAGS.INVALID_ARGUMENT, `Invalid argument value: ${argument}`);
  }

  static projectNotFound(): FirstGenerationRefusal {
    return new FirstGenerationRefusal(400, FIRST_GENERATION_TAGS.PROJECT_NOT_FOUND, 'Project not found');
  }

  static itemNotFound(): FirstGenerationRefusal {
    return new FirstGenerationRefusal(400, FIRST_GENERATION_TAGS.ITEM_NOT_FOUND, 'Item not found');
  }

  static forbidden(reason: string): FirstGenerationRefusal {
    return new FirstGenerationRefusal(403, FIRST_GENERATION_TAGS.FORBIDDEN, reason);
  }
}

/**
 * A command's refusal (its sync_status error body) in the first generation's form. One mapper
 * for every call: the domain's error tags onto the help text's strings; the HTTP status stays
 * the domain's (400, 403, 404 -> 400 as the old API answered unknown objects, 429...).
 */
export function refusalOfStatus(body: TodoistErrorBody): FirstGenerationRefusal {
  const argument = typeof body.error_extra?.['argument'] === 'string' ? body.error_extra['argument'] : undefined;
  switch (body.error_tag) {
    case 'PROJECT_NOT_FOUND':
      return new FirstGenerationRefusal(400, FIRST_GENERATION_TAGS.PROJECT_NOT_FOUND, body.error);
    case 'ITEM_NOT_FOUND':
    case 'NOT_FOUND':
      return new FirstGenerationRefusal(400, FIRST_GENERATION_TAGS.ITEM_NOT_FOUND, body.error);
    case 'ITEM_CONTENT_EMPTY':
      return new FirstGenerationRefusal(400, FIRST_GENERATION_TAGS.NAME_IS_EMPTY, body.error);
    case 'FORBIDDEN':
      return new FirstGenerationRefusal(403, FIRST_GENERATION_TAGS.FORBIDDEN, body.error);
    default:
      break;
  }
  if (argument === 'due' || argument === 'date_string') return new FirstGenerationRefusal(400, FIRST_GENERATION_TAGS.WRONG_DATE_SYNTAX, body.error);
  if (argument === 'project_id') return new FirstGenerationRefusal(400, FIRST_GENERATION_TAGS.PROJECT_NOT_FOUND, body.error);
  if (body.error_tag === 'ARGUMENT_MISSING') return new FirstGenerationRefusal(400, FIRST_GENERATION_TAGS.ARGUMENT_MISSING, body.error);
  if (body.http_code >= 400 && body.http_code < 500) return new FirstGenerationRefusal(body.http_code, FIRST_GENERATION_TAGS.INVALID_ARGUMENT, body.error);
  return new FirstGenerationRefusal(body.http_code >= 500 ? body.http_code : 500, FIRST_GENERATION_TAGS.UNKNOWN_ERROR, body.error);
}

/** A DomainError thrown by a read (the filter language, the completed history) in the same form. */
export function refusalOfError(error: DomainError): FirstGenerationRefusal | undefined {
  if (error.code === 'INVALID_ARGUMENT_VALUE' || error.code === 'ARGUMENT_MISSING') {
    const argument = typeof error.extra?.['argument'] === 'string' ? error.extra['argument'] : '';
    if (argument === 'filter' || argument === 'due') return new FirstGenerationRefusal(400, FIRST_GENERATION_TAGS.WRONG_DATE_SYNTAX, error.message);
    return new FirstGenerationRefusal(400, FIRST_GENERATION_TAGS.INVALID_ARGUMENT, error.message);
  }
  return undefined;
}
