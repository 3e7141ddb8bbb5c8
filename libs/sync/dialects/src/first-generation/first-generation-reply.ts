import { type EdgeReply, JSON_MEDIA_TYPE } from '@doable/contracts-common';
import { FIRST_GENERATION_TAGS, FirstGenerationRefusal } from './first-generation-refusal';

/**
 * JSONP (`callback=fn`, public-api-facts §1.8): the JSON wrapped as `fn(...)`, served as
 * JavaScript. The name is the only part of the answer a caller writes, and a page runs it as
 * script, so only a dotted path of plain identifiers is taken (`cb`, `jQuery1_2`, `app.todo.cb`:
 * at most four dots, 64 characters a part); anything else is refused, not escaped.
 */
export const JSONP_CALLBACK = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}(\.[A-Za-z_$][A-Za-z0-9_$]{0,63}){0,3}$/;

const JAVASCRIPT_MEDIA_TYPE = 'application/javascript; charset=utf-8';

/** A browser must not read the answer as anything but its declared type (a JSON body sniffed as HTML). */
const NO_SNIFF = { 'X-Content-Type-Options': 'nosniff' } as const;

/**
 * The callback a request asked for: undefined when none; a refusal when the name breaks the
 * rule (answered as plain JSON: a bad name is never echoed into script).
 */
export function jsonpCallback(requested: string | undefined): string | undefined {
  if (requested === undefined) return undefined;
  if (!JSONP_CALLBACK.test(requested)) throw new FirstGenerationRefusal(400, FIRST_GENERATION_TAGS.INVALID_CALLBACK, 'callback must be a dotted JavaScript identifier');
  return requested;
}

/**
 * JSON text safe inside a script: U+2028 and U+2029 end a line in older JavaScript (not in
 * JSON), and `<` could close the script element a page inlined the answer in.
 */
function scriptSafeJson(body: unknown): string {
  return JSON.stringify(body).replace(/[<\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** An answer, as JSON or (with a callback) as JSONP. */
export function firstGenerationReply(status: number, body: unknown, callback: string | undefined): EdgeReply {
  if (callback === undefined) return { status, body: JSON.stringify(body), contentType: JSON_MEDIA_TYPE, headers: NO_SNIFF };
  return { status, body: `/**/${callback}(${scriptSafeJson(body)});`, contentType: JAVASCRIPT_MEDIA_TYPE, headers: NO_SNIFF };
}

/** A refusal: its tag as a JSON string (wrapped when a valid callback was asked for). */
export function refusalReply(refusal: FirstGenerationRefusal, callback: string | undefined): EdgeReply {
  return firstGenerationReply(refusal.status, refusal.tag, callback);
}
