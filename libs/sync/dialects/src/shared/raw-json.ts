/**
 * A value of an answer that is JSON text already (written by PostgreSQL: a full sync's tasks and
 * comments), spliced into the answer as it is by answerText instead of being parsed into objects
 * and stringified again. The text must be exactly what JSON.stringify writes for its value, so an
 * answer reads the same whichever way a value came (the golden specs hold PostgreSQL to that).
 */
export class RawJson {
  constructor(readonly text: string) {}

  /**
   * Serialised by anything but answerText (JSON.stringify of a whole answer, a spec), it is its
   * value: the same text, only slower. Never a wrong answer.
   */
  toJSON(): unknown {
    return JSON.parse(this.text) as unknown;
  }
}

/**
 * An answer object as its JSON text: JSON.stringify's, with the RawJson values among its keys
 * written as their text. Only the answer's own keys are looked at (the envelope puts them there);
 * a key whose value JSON.stringify leaves out (undefined) is left out here too.
 */
export function answerText(answer: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(answer)) {
    const text = value instanceof RawJson ? value.text : JSON.stringify(value);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}
