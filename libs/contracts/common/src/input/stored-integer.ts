import { z } from 'zod';

/** PostgreSQL's `integer` (int4) bounds: orders, offsets, goals and counts are stored in one. */
export const MIN_STORED_INTEGER = -2_147_483_648;
export const MAX_STORED_INTEGER = 2_147_483_647;

/**
 * The one integer rule: a whole number a client sends for an order, an offset, a goal or a
 * count must fit a 32-bit signed integer (so `"order": 2147483648` is refused, not an overflow).
 * Narrow it further with .min()/.max() where the domain says so.
 */
export const storedInteger = z.number().int().min(MIN_STORED_INTEGER).max(MAX_STORED_INTEGER);
