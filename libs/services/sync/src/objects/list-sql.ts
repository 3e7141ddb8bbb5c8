import type { Page } from '@doable/contracts-sync';

/**
 * A small builder for the parameterised list reads: conditions are appended with their values,
 * so no caller ever concatenates a value into SQL. `$1` is always the user id (visibility).
 */
export class ListSql {
  private readonly conditions: string[] = [];
  readonly params: unknown[];

  constructor(userId: string) {
    this.params = [userId];
  }

  /** Adds a value and returns its placeholder. */
  value(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  where(condition: string): this {
    this.conditions.push(condition);
    return this;
  }

  /** The conditions joined by AND (TRUE for none), for a caller that writes its own WHERE. */
  conditionText(): string {
    return this.conditions.length > 0 ? this.conditions.join(' AND ') : 'TRUE';
  }

  whereClause(): string {
    return this.conditions.length > 0 ? `WHERE ${this.conditions.join(' AND ')}` : '';
  }

  /** One row past the page tells whether there is more, without a count query. */
  limitClause(page: Page | undefined): string {
    if (!page) return '';
    return `LIMIT ${this.value(page.limit + 1)} OFFSET ${this.value(page.offset)}`;
  }
}

/** Splits one extra row off a page read: the rows to answer and whether more follow. */
export function pageOf<T>(rows: T[], page: Page | undefined): { rows: T[]; hasMore: boolean } {
  if (!page || rows.length <= page.limit) return { rows, hasMore: false };
  return { rows: rows.slice(0, page.limit), hasMore: true };
}

/** A search term with `*` wildcards as an ILIKE pattern; `%`, `_` and `\` match themselves. */
export function searchPattern(term: string): string {
  const escaped = term.replace(/[\\%_]/g, (char) => `\\${char}`).replace(/\*/g, '%');
  return escaped.includes('%') ? escaped : `%${escaped}%`;
}

