/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether PostgreSQL can store this text: no NUL (refused in `text` columns) and no unpaired
 * UTF-16 surrogate (not encodable as UTF-8). Either reached the database as a 500 before.
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}


/** The name of the first field (query, path or body; strings at any depth) holding text PostgreSQL cannot store. */
export function unstorableField(fields: Readonly<Record<string, unknown>>): string | undefined {
  for (const [name, value] of Object.entries(fields)) {
    if (!holdsStorableText(value, 0)) return name;
  }
  return undefined;
}

/** The gateway bounds nesting (32 levels); this bound only keeps the walk honest on its own. */
const MAX_DEPTH = 64;

function holdsStorableText(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return isStorableText(value);
  if (value === null || typeof value !== 'object') return true;
  if (depth >= MAX_DEPTH) return false;
  const items = Array.isArray(value) ? (value as unknown[]) : Object.entries(value).flat();
  return items.every((item) => holdsStorableText(item, depth + 1));
}
