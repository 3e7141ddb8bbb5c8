import { DomainError } from '@doable/shared-errors';

/**
 * How many arrays/objects deep a request body (or a JSON text inside a form field, such as
 * `commands`) may nest. The deepest thing a real client sends is a sync command's
 * `args.due` inside `commands` (4 levels); 32 leaves room for anything legitimate and keeps
 * every recursive walk downstream (validation, serialisation, logging) far from the stack.
 */
export const MAX_BODY_DEPTH = 32;

const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests deeper than `limit`, found by counting brackets outside string
 * literals, without parsing. Works on bytes (UTF-8) and on strings alike: every character it
 * looks at is ASCII. Malformed text is not its business (the parser refuses it).
 */
export function jsonNestsDeeperThan(text: Buffer | string, limit: number): boolean {
  const at = typeof text === 'string' ? (index: number) => text.charCodeAt(index) : (index: number) => text[index];
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = at(index);
    if (inString) {
      if (char === BACKSLASH) index++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) inString = true;
    else if (char === OPEN_BRACKET || char === OPEN_BRACE) {
      if (++depth > limit) return true;
    } else if (char === CLOSE_BRACKET || char === CLOSE_BRACE) depth--;
  }
  return false;
}

/** A form or query value that is JSON text (`commands`, `resource_types`, `ids`), by its first character. */
function looksLikeJson(value: string): boolean {
  const first = value.trimStart().charCodeAt(0);
  return first === OPEN_BRACKET || first === OPEN_BRACE;
}

function tooDeep(): DomainError {
  return new DomainError('BODY_TOO_DEEP', `JSON in the request nests deeper than ${MAX_BODY_DEPTH} levels`, { max_depth: MAX_BODY_DEPTH });
}

/** Raw JSON body bytes, before parsing: refused when they nest too deep. */
export function checkJsonBytes(raw: Buffer): void {
  if (jsonNestsDeeperThan(raw, MAX_BODY_DEPTH)) throw tooDeep();
}

/** Form fields (and query values) holding JSON text are held to the same depth as a JSON body. */
export function checkFormValues(fields: Record<string, unknown>): void {
  for (const value of Object.values(fields)) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (typeof item === 'string' && looksLikeJson(item) && jsonNestsDeeperThan(item, MAX_BODY_DEPTH)) throw tooDeep();
    }
  }
}

/** Whether a parsed JSON value holds a `__proto__` key anywhere (bounded: depth was checked first). */
function holdsProtoKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(holdsProtoKey);
  return Object.keys(value).some((key) => key === '__proto__' || holdsProtoKey((value as Record<string, unknown>)[key]));
}

/**
 * What every route expects of a parsed JSON body: an object (`null` counts as no body).
 * A string, number or array is refused here rather than discovered by a service. A
 * `__proto__` key is refused too: no Todoist payload has one, and merged into an object
 * downstream it would replace that object's prototype.
 */
export function checkJsonBody(body: unknown, raw: Buffer): void {
  if (body === null) return;
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new DomainError('BODY_NOT_OBJECT', 'The JSON body must be an object', { received: Array.isArray(body) ? 'array' : typeof body });
  }
  // Only a body whose bytes could spell the key (plainly or with \u escapes) is walked, so the
  // common case costs two native searches.
  if ((raw.includes('__proto__') || raw.includes('\\u')) && holdsProtoKey(body)) throw new DomainError('BAD_REQUEST', 'A key named __proto__ is not accepted', { argument: '__proto__' });
}
