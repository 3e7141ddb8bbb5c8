import { z } from 'zod';

const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The one text rule: what a client may send as text anywhere in the task domain. PostgreSQL
 * cannot store a NUL character in text (`invalid byte sequence for encoding "UTF8": 0x00`), and
 * a lone UTF-16 surrogate is not a character at all: jsonb refuses its escape and UTF-8 cannot
 * encode it (the driver would silently store U+FFFD instead). Both are refused where input enters
 * the domain, so no statement ever sees them. Every other code point is allowed, RTL marks and
 * byte-order marks included: they are text, if odd.
 */
export function unstorableTextReason(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains a NUL character';
  // In a `u` regular expression a surrogate pair is one code point: only a lone half is Cs.
  if (LONE_SURROGATE.test(text)) return 'contains a lone UTF-16 surrogate';
  return undefined;
}

/** Whether text keeps the text rule (a field read one by one: a form field, a credential). */
export function isStorableText(text: string): boolean {
  return unstorableTextReason(text) === undefined;
}

export interface UnstorableText {
  /** Where in the value: `body.commands.0.args.content` (keys are checked too). */
  readonly path: string;
  readonly reason: string;
}

/** Past this depth a value is not walked further: the gateway's JSON parser already bounds nesting. */
const MAX_DEPTH = 256;

/** The first string (value or key) of a JSON value that breaks the text rule, or undefined. */
export function findUnstorableText(value: unknown, path = '', depth = 0): UnstorableText | undefined {
  if (typeof value === 'string') {
    const reason = unstorableTextReason(value);
    return reason ? { path, reason } : undefined;
  }
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return undefined;
  const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
  for (const [key, item] of entries) {
    const at = path ? `${path}.${key}` : key;
    const badKey = unstorableTextReason(key);
    if (badKey) return { path: at, reason: `its name ${badKey}` };
    const found = findUnstorableText(item, at, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Adds the text rule to a schema of any JSON value: one issue, naming where the bad text is. */
export function withStorableText<T extends z.ZodType>(schema: T): T {
  return schema.superRefine((value, context) => {
    const found = findUnstorableText(value);
    if (found) context.addIssue({ code: 'custom', path: found.path ? found.path.split('.') : [], message: `Text ${found.reason}` });
  });
}

/** A string that keeps the text rule (for ids, uuids and names checked one by one). */
export const storableString = z.string().refine((text) => unstorableTextReason(text) === undefined, { message: 'Text contains a NUL character or a lone UTF-16 surrogate' });

/**
 * A Sync API command's uuid: stored (sync's command log, and the logs in which notifications and
 * auth-oauth run a command's remote work once), so it keeps the text rule, and at most 64 long.
 */
export const commandUuid = storableString.min(1).max(64);
