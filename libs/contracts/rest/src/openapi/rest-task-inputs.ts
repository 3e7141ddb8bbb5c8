import type { FieldArgs, FieldTable } from '@doable/contracts-sync';
import type { z } from 'zod';

/**
 * The task fields a REST v2 or api/v1 body takes as they are, from the task field table (issue
 * #46): each line item_add (create) or item_update (update) takes as an argument and REST v2
 * writes, under its REST v2 key, with the command's own schema. REST spells the older fields its
 * own way (rest-inputs.schema.ts: a due in words or as a day, a duration in two keys, labels, the
 * assignee): a line whose key such a body names already is left to it, and so are the fields
 * below. So none of today's lines is taken this way; a new line is, with no edit in the REST code.
 * REST v1, an older generation, takes none of them.
 */

/** Fields the commands take that REST never takes as they are: a due and a deadline come as words or days (`due_string`, `deadline_date`...), and who assigned a task is the command's to say. */
const SPELLED_OTHERWISE = ['due', 'deadline', 'assigned_by_uid'] as const;
type SpelledOtherwise = (typeof SPELLED_OTHERWISE)[number];

export interface RestTaskInput {
  /** The command's argument (the line's name). */
  readonly field: string;
  /** The body's key (the line's REST v2 key). */
  readonly key: string;
  readonly schema: z.ZodType;
}

/** The body shape those inputs make, typed line by line (empty for today's table). */
export type RestTaskShape<T extends FieldTable, M extends keyof FieldArgs, Taken extends string> = {
  -readonly [F in keyof T as F extends SpelledOtherwise
    ? never
    : T[F] extends { readonly args: { readonly [K in M]: z.ZodType }; readonly restV2: { readonly key: infer K extends string } }
      ? K extends Taken
        ? never
        : K
      : never]: T[F] extends { readonly args: { readonly [K in M]: infer S extends z.ZodType } } ? z.ZodOptional<S> : never;
};

/** The inputs of a table for a create (`add`) or an update, beside a body whose own keys are `taken`. */
export function restTaskInputs(table: FieldTable, mode: keyof FieldArgs, taken: readonly string[]): RestTaskInput[] {
  const otherwise: readonly string[] = SPELLED_OTHERWISE;
  return Object.entries(table).flatMap(([field, line]) => {
    const schema = line.args?.[mode];
    const key = line.restV2?.key;
    if (!schema || key === undefined || taken.includes(key) || otherwise.includes(field)) return [];
    return [{ field, key, schema: schema.optional() }];
  });
}

/** The inputs as a body shape, for the body's z.object (and so the OpenAPI document). */
export function restTaskShape<T extends FieldTable, M extends keyof FieldArgs, Taken extends string>(table: T, mode: M, taken: readonly Taken[]): RestTaskShape<T, M, Taken> {
  return Object.fromEntries(restTaskInputs(table, mode, taken).map((input) => [input.key, input.schema])) as RestTaskShape<T, M, Taken>;
}
