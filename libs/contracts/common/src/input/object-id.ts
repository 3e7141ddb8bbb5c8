import { z } from 'zod';

/** The largest value a PostgreSQL bigint holds: every object id (and change version) of the domain is one. */
export const MAX_OBJECT_ID = 9_223_372_036_854_775_807n;

/** Decimal digits that fit a bigint, 0 included (a change version); ids are these and positive. */
export function fitsBigint(value: string): boolean {
  return /^[0-9]{1,19}$/.test(value) && BigInt(value) <= MAX_OBJECT_ID;
}

/**
 * The one id rule: an object id is a positive integer of at most 19 decimal digits that fits a
 * bigint (so `9223372036854775808` is no id, and a lookup of it finds nothing instead of
 * overflowing a cast). Anything else a client sends where an id goes is a temp id, or not found.
 */
export function isObjectId(value: string): boolean {
  return fitsBigint(value) && BigInt(value) > 0n;
}

/** An object id as a string. */
export const objectIdSchema = z.string().refine(isObjectId, 'Not an object id (a positive integer that fits 64 bits)');
