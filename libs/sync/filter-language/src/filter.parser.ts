import type { Assignee, DateComparison, FilterList, FilterNode, FilterTerm, NamePattern } from './filter.ast';
import { invalidFilter } from './filter-errors';
import { type FilterToken, tokenizeFilter, unescapeFilterText } from './filter.lexer';

/** Longest filter accepted: a query is a user's saved text, not a data channel. */
export const MAX_FILTER_LENGTH = 1024;

/** Words that are whole filters on their own (lower case, single spaces). */
const KEYWORDS: Readonly<Record<string, FilterTerm>> = {
  all: { type: 'all' },
  'view all': { type: 'all' },
  overdue: { type: 'overdue' },
  od: { type: 'overdue' },
  'no date': { type: 'noDate' },
  'no due date': { type: 'noDate' },
  'no time': { type: 'noTime' },
  today: { type: 'relativeDay', offset: 0 },
  tod: { type: 'relativeDay', offset: 0 },
  tomorrow: { type: 'relativeDay', offset: 1 },
  tom: { type: 'relativeDay', offset: 1 },
  yesterday: { type: 'relativeDay', offset: -1 },
  'no labels': { type: 'noLabels' },
  'no label': { type: 'noLabels' },
  assigned: { type: 'assigned' },
  shared: { type: 'shared' },
  recurring: { type: 'recurring' },
  subtask: { type: 'subtask' },
  subtasks: { type: 'subtask' },
  p1: { type: 'priority', level: 1 },
  p2: { type: 'priority', level: 2 },
  p3: { type: 'priority', level: 3 },
  p4: { type: 'priority', level: 4 },
};

/** `key: value` filters, by their key (lower case, single spaces). */
const KEYED: Readonly<Record<string, (value: string, raw: string, position: number) => FilterTerm>> = {
  due: (value) => dateTerm('due', 'on', value),
  date: (value) => dateTerm('due', 'on', value),
  'due before': (value) => dateTerm('due', 'before', value),
  'date before': (value) => dateTerm('due', 'before', value),
  'due after': (value) => dateTerm('due', 'after', value),
  'date after': (value) => dateTerm('due', 'after', value),
  created: (value) => dateTerm('created', 'on', value),
  'created before': (value) => dateTerm('created', 'before', value),
  'created after': (value) => dateTerm('created', 'after', value),
  search: (_value, raw, position) => ({ type: 'search', text: requiredPattern(raw, 'search:', position) }),
  'assigned to': (value, raw, position) => ({ type: 'assignedTo', who: assignee(value, raw, 'assigned to:', position) }),
  'assigned by': (value, raw, position) => ({ type: 'assignedBy', who: assignee(value, raw, 'assigned by:', position) }),
};

/** "7 days", "next 7 days", "-3 days", "+3 days". */
const DAY_RANGE = /^(?:next )?([+-]?)(\d{1,4}) ?days?$/;

function dateTerm(type: 'due' | 'created', comparison: DateComparison, value: string): FilterTerm {
  if (value === '') throw invalidFilter(`"${type}${comparison === 'on' ? '' : ` ${comparison}`}:" needs a date`);
  return { type, comparison, phrase: value };
}

function assignee(value: string, raw: string, key: string, position: number): Assignee {
  const word = normalise(value);
  if (word === 'me') return { kind: 'me' };
  if (word === 'others') return { kind: 'others' };
  return { kind: 'name', name: requiredPattern(raw, key, position) };
}

/** Lower case, single spaces: keywords are compared as words, not typography. */
function normalise(text: string): string {
  return text.normalize('NFC').toLocaleLowerCase().replace(/\s+/g, ' ').trim();
}

/** A name with `*` wildcards; `\*` is a literal star. */
export function namePattern(raw: string): NamePattern {
  const segments: string[] = [''];
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === '\\' && i + 1 < raw.length) {
      segments[segments.length - 1] += raw[++i];
    } else if (ch === '*') {
      segments.push('');
    } else {
      segments[segments.length - 1] += ch;
    }
  }
  return { segments };
}

function requiredPattern(raw: string, what: string, position: number): NamePattern {
  const trimmed = raw.trim();
  if (trimmed === '') throw invalidFilter(`"${what}" needs a name at position ${position + 1}`, { position: position + 1 });
  return namePattern(trimmed);
}

/** The raw text after the first unescaped `:` (escapes kept), or undefined without one. */
function afterColon(raw: string): { key: string; value: string } | undefined {
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '\\') {
      i++;
    } else if (raw[i] === ':') {
      return { key: raw.slice(0, i), value: raw.slice(i + 1) };
    }
  }
  return undefined;
}

/** What one term's text means. Unknown text is kept as a date phrase for the compiler to read. */
export function classifyTerm(raw: string, position: number): FilterTerm {
  if (raw.startsWith('##')) return { type: 'project', name: requiredPattern(raw.slice(2), '##', position), withSubprojects: true };
  if (raw.startsWith('#')) return { type: 'project', name: requiredPattern(raw.slice(1), '#', position), withSubprojects: false };
  if (raw.startsWith('/')) return { type: 'section', name: requiredPattern(raw.slice(1), '/', position) };
  if (raw.startsWith('@')) return { type: 'label', name: requiredPattern(raw.slice(1), '@', position) };

  const text = normalise(unescapeFilterText(raw));
  const keyword = KEYWORDS[text];
  if (keyword) return keyword;
  const range = DAY_RANGE.exec(text);
  if (range) {
    const days = Number(range[2]);
    if (days === 0) throw invalidFilter(`"${text}" names no days`, { position: position + 1 });
    return { type: 'dayRange', days: range[1] === '-' ? -days : days };
  }
  const keyed = afterColon(raw);
  if (keyed) {
    const build = KEYED[normalise(unescapeFilterText(keyed.key))];
    if (build) return build(normalise(unescapeFilterText(keyed.value)), keyed.value, position);
  }
  return { type: 'date', phrase: text };
}

class Parser {
  private index = 0;

  constructor(
    private readonly tokens: readonly FilterToken[],
    private readonly query: string,
  ) {}

  parse(): FilterList[] {
    const lists: FilterList[] = [];
    for (;;) {
      const start = this.peek()?.position ?? this.query.length;
      if (this.peek() === undefined || this.peek()?.kind === 'comma') {
        throw invalidFilter(`Empty filter list at position ${start + 1}: a comma must separate two filters`, { position: start + 1 });
      }
      const expression = this.parseOr();
      const next = this.peek();
      const end = next?.position ?? this.query.length;
      lists.push({ source: this.query.slice(start, end).trim(), expression });
      if (next === undefined) return lists;
      if (next.kind !== 'comma') throw this.unexpected(next);
      this.index++;
    }
  }

  private parseOr(): FilterNode {
    let left = this.parseAnd();
    while (this.peek()?.kind === 'or') {
      this.index++;
      left = { kind: 'or', left, right: this.parseAnd() };
    }
    return left;
  }

  private parseAnd(): FilterNode {
    let left = this.parseUnary();
    while (this.peek()?.kind === 'and') {
      this.index++;
      left = { kind: 'and', left, right: this.parseUnary() };
    }
    return left;
  }

  private parseUnary(): FilterNode {
    const token = this.peek();
    if (token?.kind === 'not') {
      this.index++;
      return { kind: 'not', operand: this.parseUnary() };
    }
    return this.parsePrimary();
  }

  private parsePrimary(): FilterNode {
    const token = this.peek();
    if (token === undefined) {
      const previous = this.tokens[this.index - 1];
      throw invalidFilter(
        previous ? `The filter ends after "${this.query[previous.position]}": a filter is expected at position ${this.query.length + 1}` : 'The filter is empty',
        { position: this.query.length + 1 },
      );
    }
    if (token.kind === 'term') {
      this.index++;
      return { kind: 'term', term: classifyTerm(token.raw, token.position) };
    }
    if (token.kind === 'lparen') {
      this.index++;
      const inner = this.parseOr();
      const close = this.peek();
      if (close?.kind !== 'rparen') {
        throw invalidFilter(`The "(" at position ${token.position + 1} is never closed`, { position: token.position + 1 });
      }
      this.index++;
      return inner;
    }
    throw this.unexpected(token);
  }

  private unexpected(token: FilterToken) {
    const text = token.kind === 'term' ? token.raw : this.query[token.position];
    const hint = token.kind === 'term' ? ' (join filters with "&" or "|")' : '';
    return invalidFilter(`Unexpected "${text}" at position ${token.position + 1}${hint}`, { position: token.position + 1 });
  }

  private peek(): FilterToken | undefined {
    return this.tokens[this.index];
  }
}

/**
 * A whole query: one list per comma. `!` binds tightest, then `&`, then `|`, all left to right;
 * parentheses group. Throws INVALID_ARGUMENT_VALUE (argument 'filter') on a syntax error.
 */
export function parseFilterQuery(query: string): FilterList[] {
  if (query.length > MAX_FILTER_LENGTH) throw invalidFilter(`The filter is longer than ${MAX_FILTER_LENGTH} characters`);
  if (query.trim() === '') throw invalidFilter('The filter is empty');
  return new Parser(tokenizeFilter(query), query).parse();
}
