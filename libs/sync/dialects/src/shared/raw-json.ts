import type { JsonArrayText } from '@doable/sync-domain';

/**
 * A value of an answer that is JSON text already (written by PostgreSQL: a full sync's tasks and
 * comments), spliced into the answer as it is by answerText and answerBytes instead of being
 * parsed into objects and stringified again. The text must be exactly what JSON.stringify writes
 * for its value, so an answer reads the same whichever way a value came (the golden specs hold
 * PostgreSQL to that). An array may be held as its elements' texts (JsonArrayText).
 */
export class RawJson {
  constructor(readonly text: string | JsonArrayText) {}

  /**
   * Serialised by anything but answerText (JSON.stringify of a whole answer, a spec), it is its
   * value: the same text, only slower. Never a wrong answer.
   */
  toJSON(): unknown {
    return JSON.parse(String(this.text)) as unknown;
  }
}

/** An answer's members as the texts that make its JSON: `"key":` and a value's text, or an array's elements. */
function members(answer: Readonly<Record<string, unknown>>): Array<{ readonly head: string; readonly value: string | JsonArrayText }> {
  const written: Array<{ head: string; value: string | JsonArrayText }> = [];
  for (const [key, value] of Object.entries(answer)) {
    const text = value instanceof RawJson ? value.text : JSON.stringify(value);
    if (text !== undefined) written.push({ head: `${written.length === 0 ? '' : ','}${JSON.stringify(key)}:`, value: text });
  }
  return written;
}

/**
 * An answer object as its JSON text: JSON.stringify's, with the RawJson values among its keys
 * written as their text. Only the answer's own keys are looked at (the envelope puts them there);
 * a key whose value JSON.stringify leaves out (undefined) is left out here too.
 */
export function answerText(answer: Readonly<Record<string, unknown>>): string {
  return textOf(members(answer));
}

function textOf(written: ReturnType<typeof members>): string {
  return `{${written.map(({ head, value }) => head + String(value)).join('')}}`;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * answerText's UTF-8 bytes, each piece written straight into one buffer: a full sync's arrays
 * held as their elements' texts (5,000 tasks, 2,000 comments) are never joined into a string of
 * megabytes first, then copied into the answer's string, then encoded (issue #48, bench S3).
 */
export function answerBytes(answer: Readonly<Record<string, unknown>>): Buffer {
  return bytesOf(members(answer));
}

function bytesOf(written: ReturnType<typeof members>): Buffer {
  let length = 2;
  for (const { head, value } of written) {
    length += Buffer.byteLength(head);
    length += typeof value === 'string' ? Buffer.byteLength(value) : value.byteLength();
  }
  const bytes = Buffer.allocUnsafe(length);
  let at = 0;
  bytes[at++] = OPEN_BRACE;
  for (const { head, value } of written) {
    at += bytes.write(head, at);
    at = typeof value === 'string' ? at + bytes.write(value, at) : value.writeInto(bytes, at);
  }
  bytes[at++] = CLOSE_BRACE;
  return bytes;
}

/**
 * Past this many characters an answer goes as bytes even when JavaScript wrote all of it (a v7
 * full sync of 5,000 tasks: 2.5 MB), for the reason answerBytes gives: joined first, the
 * megabytes are copied into a string V8 must then flatten and the transport encode (10 ms per
 * v7 full sync of the S3 account, bench S7). Well above a poll's answer.
 */
const BYTES_FROM_CHARS = 64 * 1024;

/**
 * The body an edge reply carries for an answer: its bytes when it holds text PostgreSQL wrote (a
 * full sync, megabytes on a large account) or is that large anyway, its text otherwise (a poll's
 * few hundred bytes, which the gateway may keep and give again). Callers that did not ask for
 * bytes read text either way (the transport's withTextBody).
 */
export function answerBody(answer: Readonly<Record<string, unknown>>): string | Buffer {
  const written = members(answer);
  if (Object.values(answer).some((value) => value instanceof RawJson)) return bytesOf(written);
  let chars = 0;
  for (const { head, value } of written) chars += head.length + String(value).length;
  return chars >= BYTES_FROM_CHARS ? bytesOf(written) : textOf(written);
}
