import { z } from 'zod';
import type { JsonObject } from '../calls/domain-calls';

/** Shapes several tools share: ids, a page of results, objects as api/v1 renders them. */
export const id = z.string().min(1).max(100);
export const ids = z.array(id).min(1).max(100);
export const limit = z.number().int().min(1).max(200).optional().describe('At most this many results (default 50)');
export const cursor = z.string().max(2048).nullish().describe('The nextCursor of a previous call, for the next page');

/** An object as api/v1 REST renders it: the tools pass them through rather than restating every field. */
export const apiObject = z.object({ id: z.string() }).passthrough();
export const apiObjects = z.array(apiObject);

/** Which ids a batch changed and which it could not (with the reason): a partial batch is not a failure. */
export const batchOutcome = {
  succeeded: z.array(z.string()),
  failed: z.array(z.object({ id: z.string(), error: z.string(), tag: z.string() })),
};

export function pageQuery(args: { limit?: number; cursor?: string | null }): Record<string, string | undefined> {
  return { limit: String(args.limit ?? 50), cursor: args.cursor ?? undefined };
}

/** The api/v1 objects of a REST answer, typed for the output schema (every object has an id). */
export function asObjects(items: readonly JsonObject[]): Array<{ id: string } & JsonObject> {
  return items as Array<{ id: string } & JsonObject>;
}

/**
 * One write per item, in order (a later item may name what an earlier one made), answering the
 * objects written. The first refusal stops the batch: what was written before it stays.
 */
export async function eachInOrder<T>(items: readonly T[], write: (item: T) => Promise<JsonObject>): Promise<Array<{ id: string } & JsonObject>> {
  const written: JsonObject[] = [];
  for (const item of items) written.push(await write(item));
  return asObjects(written);
}

/** A field the API answers as text or a number (ids, names), as text; anything else as ''. */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}
