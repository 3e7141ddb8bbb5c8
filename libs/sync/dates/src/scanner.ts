/**
 * A cursor over a lower-cased due string. Commas count as spaces so lists ("mon, fri") and
 * dates ("Dec 1, 2026") need no special case; in spaced languages every match must end on a
 * word boundary so "mon" never eats the start of "month".
 */
export class Scanner {
  private pos = 0;

  constructor(
    readonly text: string,
    private readonly spaced: boolean,
  ) {}

  get position(): number {
    return this.pos;
  }

  reset(position: number): void {
    this.pos = position;
  }

  rest(): string {
    this.skipSpace();
    return this.text.slice(this.pos);
  }

  done(): boolean {
    this.skipSpace();
    return this.pos >= this.text.length;
  }

  /** The longest of `words` at the cursor, consumed; undefined (cursor unmoved) when none fits. */
  word(words: readonly string[]): string | undefined {
    this.skipSpace();
    let best: string | undefined;
    for (const w of words) {
      if ((best === undefined || w.length > best.length) && this.text.startsWith(w, this.pos) && this.boundaryAt(this.pos + w.length)) {
        best = w;
      }
    }
    if (best !== undefined) this.pos += best.length;
    return best;
  }

  /** A sticky regular expression at the cursor. */
  match(re: RegExp): RegExpExecArray | undefined {
    this.skipSpace();
    const sticky = re.sticky ? re : new RegExp(re.source, `${re.flags}y`);
    sticky.lastIndex = this.pos;
    const m = sticky.exec(this.text);
    if (!m || !this.boundaryAt(this.pos + m[0].length)) return undefined;
    this.pos += m[0].length;
    return m;
  }

  /** Index in `table` of the longest spelling at the cursor (weekday or month tables). */
  oneOf(table: readonly (readonly string[])[]): number | undefined {
    this.skipSpace();
    let bestIndex: number | undefined;
    let bestLength = -1;
    table.forEach((spellings, index) => {
      for (const w of spellings) {
        if (w.length > bestLength && this.text.startsWith(w, this.pos) && this.boundaryAt(this.pos + w.length)) {
          bestIndex = index;
          bestLength = w.length;
        }
      }
    });
    if (bestIndex !== undefined) this.pos += bestLength;
    return bestIndex;
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && /[\s,]/.test(this.text[this.pos] ?? '')) this.pos++;
  }

  private boundaryAt(index: number): boolean {
    if (!this.spaced || index >= this.text.length) return true;
    const prev = this.text[index - 1] ?? '';
    const next = this.text[index] ?? '';
    // A word that ends in punctuation ("kl.", "every!") is already bounded.
    return !/[\p{L}\p{N}]/u.test(next) || !/[\p{L}\p{N}]/u.test(prev);
  }
}
