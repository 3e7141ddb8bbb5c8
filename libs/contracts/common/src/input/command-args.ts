import { z } from 'zod';

/**
 * Argument pieces every kind of sync command takes, accepting both historical spellings where
 * sources differ. In the contracts (not the engine) because the field tables name them: a task
 * field's argument schema is one line of its table, read by the commands that take it.
 */
export const idArg = z.union([z.string().min(1).max(100), z.number().int().positive()]);
export const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((value) => value === true || value === 1);
