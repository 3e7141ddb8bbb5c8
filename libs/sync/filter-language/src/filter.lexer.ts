import { invalidFilter } from './filter-errors';

export type OperatorKind = 'and' | 'or' | 'not' | 'lparen' | 'rparen' | 'comma';

/**
 * A term keeps its backslash escapes (`raw`): only the parser knows whether a `*` is a wildcard
 * (in a name) or a `:` separates a keyword, and an escaped one must stay literal for both.
 */
export type FilterToken =
  | { readonly kind: OperatorKind; readonly position: number }
  | { readonly kind: 'term'; readonly raw: string; readonly position: number };

const OPERATORS: Readonly<Record<string, OperatorKind>> = {
  '&': 'and',
  '|': 'or',
  '!': 'not',
  '(': 'lparen',
  ')': 'rparen',
  ',': 'comma',
};

/**
 * Splits a query into operators and terms. A term is everything between two unescaped operator
 * characters, so names and date phrases may contain spaces ("#Home chores", "due before: next
 * monday"); surrounding unescaped whitespace is dropped. `\x` makes any character literal.
 */
export function tokenizeFilter(query: string): FilterToken[] {
  const tokens: FilterToken[] = [];
  let raw = '';
  let start = -1;
  // Length of `raw` up to its last non-blank character (an escaped blank counts as content).
  let significant = 0;

  const flush = () => {
    if (start >= 0 && significant > 0) tokens.push({ kind: 'term', raw: raw.slice(0, significant), position: start });
    raw = '';
    start = -1;
    significant = 0;
  };

  for (let i = 0; i < query.length; i++) {
    const ch = query[i];
    if (ch === '\\') {
      if (i + 1 >= query.length) throw invalidFilter(`The filter ends with an unfinished escape "\\" at position ${i + 1}`, { position: i + 1 });
      if (start < 0) start = i;
      raw += ch + query[i + 1];
      significant = raw.length;
      i++;
      continue;
    }
    const operator = OPERATORS[ch];
    if (operator !== undefined) {
      flush();
      tokens.push({ kind: operator, position: i });
      continue;
    }
    if (/\s/.test(ch)) {
      if (start >= 0) raw += ch;
      continue;
    }
    if (start < 0) start = i;
    raw += ch;
    significant = raw.length;
  }
  flush();
  return tokens;
}

/** The term's text with escapes resolved. */
export function unescapeFilterText(raw: string): string {
  return raw.replace(/\\(.)/gsu, '$1');
}
