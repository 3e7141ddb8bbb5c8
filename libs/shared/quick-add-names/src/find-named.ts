export interface Named {
  readonly id: string;
  readonly name: string;
}

/** A candidate named in a line: the marker's index and the index just past the name. */
export interface NamedMatch<T extends Named> {
  readonly found: T;
  readonly start: number;
  readonly end: number;
}

const startsToken = (text: string, index: number) => index === 0 || /\s/.test(text[index - 1] ?? '');

/** The longest name right after the marker at `index`, and where it ends; quoted and `\ `-escaped spellings accepted. */
function matchName<T extends Named>(text: string, index: number, candidates: readonly T[]): [T, number] | null {
  const rest = text.slice(index + 1);
  if (rest.startsWith('"')) {
    const close = rest.indexOf('"', 1);
    if (close < 0) return null;
    const wanted = rest.slice(1, close).toLocaleLowerCase();
    const found = candidates.find((candidate) => candidate.name.toLocaleLowerCase() === wanted);
    return found ? [found, index + 2 + close] : null;
  }
  const lowerRest = rest.toLocaleLowerCase();
  for (const candidate of [...candidates].sort((a, b) => b.name.length - a.name.length)) {
    const name = candidate.name.toLocaleLowerCase();
    for (const spelling of [name, name.replace(/ /g, '\\ ')]) {
      const after = rest[spelling.length];
      if (spelling && lowerRest.startsWith(spelling) && (after === undefined || /\s/.test(after))) return [candidate, index + 1 + spelling.length];
    }
  }
  return null;
}

/**
 * The first `marker` token (at the line's start or after a space) that names a candidate, case
 * insensitively, the longest name winning; null when none does.
 */
export function findNamed<T extends Named>(text: string, marker: string, candidates: readonly T[]): NamedMatch<T> | null {
  for (let index = text.indexOf(marker); index >= 0; index = text.indexOf(marker, index + 1)) {
    if (!startsToken(text, index)) continue;
    const match = matchName(text, index, candidates);
    if (match) return { found: match[0], start: index, end: match[1] };
  }
  return null;
}
