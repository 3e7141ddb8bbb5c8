import { z } from 'zod';

/**
 * Field schemas for REST arguments (JSON body fields and query parameters). Their error texts
 * are the "why" of the coded 400 the rest service answers (`Invalid argument value: name (why)`),
 * the same words its argument readers use, so a request refused here reads as it always did.
 * A refinement with `params.missing` is reported as ARGUMENT_MISSING.
 */

/** A query parameter arrives as a string, or as a list when sent more than once. */
const repeated = (why: string) => (issue: { input?: unknown }) => (Array.isArray(issue.input) ? 'sent more than once' : why);

export function text(max = 16_384) {
  return z.string({ error: repeated('must be a string') }).max(max, { error: `at most ${max} characters` });
}

/** A required text: absent, empty or blank is "missing". */
export function requiredText(max = 16_384) {
  return text(max).refine((value) => value.trim() !== '', { params: { missing: true } });
}

/** An id: a string (REST v2, api/v1) or a JSON number (as older clients send). */
export const idField = z.union([z.string().min(1, { error: 'must be an id' }).max(100, { error: 'must be an id' }), z.int().min(0)], { error: repeated('must be an id') });

/** An id, or null (or REST v1's 0) for "none". */
export const nullableIdField = idField.nullable();

/** JSON bodies may carry integers as numbers or numeric strings, as REST clients have sent them. */
export function intField(range: { min?: number; max?: number } = {}) {
  let number = z.int({ error: 'must be an integer' });
  if (range.min !== undefined) number = number.min(range.min, { error: `at least ${range.min}` });
  if (range.max !== undefined) number = number.max(range.max, { error: `at most ${range.max}` });
  return z.union([number, z.string().regex(/^-?[0-9]{1,15}$/, { error: 'must be an integer' })], { error: repeated('must be an integer') });
}

/** A query integer (always text on the wire, documented as the integer it stands for). */
export function queryInt(range: { min: number; max: number }) {
  return z.coerce
    .number({ error: repeated('must be an integer') })
    .int({ error: 'must be an integer' })
    .min(range.min, { error: `at least ${range.min}` })
    .max(range.max, { error: `at most ${range.max}` });
}

export const booleanField = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']), z.literal([0, 1])], { error: repeated('must be a boolean') });

export const stringList = (maxItems = 500) => z.array(z.string(), { error: 'must be a list of strings' }).max(maxItems, { error: `at most ${maxItems} items` });

/** Ids in a query: `ids=1,2`, `ids=["1","2"]` or repeated `ids=1&ids=2`. */
export const queryIdList = z.union([z.string(), z.array(z.string())]).describe('Comma-separated ids, a JSON list, or the parameter repeated.');

/** A colour name (REST v2, api/v1) or a colour id (REST v1). */
export const colorField = z.union([text(32), z.int()], { error: 'must be a string' });
