/**
 * The Todoist filter language as a tree. A query is one or more comma-separated lists; each list
 * is a boolean expression over terms. Date phrases stay text here: what "monday" means depends on
 * the user's clock and language, which only the compiler knows.
 */
export type FilterNode =
  | { readonly kind: 'and'; readonly left: FilterNode; readonly right: FilterNode }
  | { readonly kind: 'or'; readonly left: FilterNode; readonly right: FilterNode }
  | { readonly kind: 'not'; readonly operand: FilterNode }
  | { readonly kind: 'term'; readonly term: FilterTerm };

/**
 * A name with wildcards: the literal pieces between `*`s ("Work*" is ["Work", ""]; "Work" is
 * ["Work"]). Escapes are already resolved, so a piece may contain a literal `*`, `&` or `(`.
 */
export interface NamePattern {
  readonly segments: readonly string[];
}

/** Who an assignment filter names. */
export type Assignee = { readonly kind: 'me' } | { readonly kind: 'others' } | { readonly kind: 'name'; readonly name: NamePattern };

export type DateComparison = 'on' | 'before' | 'after';

export type FilterTerm =
  | { readonly type: 'all' }
  | { readonly type: 'overdue' }
  | { readonly type: 'noDate' }
  | { readonly type: 'noTime' }
  /** today (0), tomorrow (1), yesterday (-1): a day relative to the user's today. */
  | { readonly type: 'relativeDay'; readonly offset: number }
  /** `N days` / `next N days`: today and the N-1 days after it; `-N days`: the N days before today. */
  | { readonly type: 'dayRange'; readonly days: number }
  | { readonly type: 'due'; readonly comparison: DateComparison; readonly phrase: string }
  | { readonly type: 'created'; readonly comparison: DateComparison; readonly phrase: string }
  /** Anything else is read as a date phrase ("Jan 3", "next monday"); it fails at compile time if it is not one. */
  | { readonly type: 'date'; readonly phrase: string }
  /** The filter's p-level: p1 is the highest (API priority 4). */
  | { readonly type: 'priority'; readonly level: 1 | 2 | 3 | 4 }
  | { readonly type: 'project'; readonly name: NamePattern; readonly withSubprojects: boolean }
  | { readonly type: 'section'; readonly name: NamePattern }
  | { readonly type: 'label'; readonly name: NamePattern }
  | { readonly type: 'noLabels' }
  | { readonly type: 'search'; readonly text: NamePattern }
  | { readonly type: 'assignedTo'; readonly who: Assignee }
  | { readonly type: 'assignedBy'; readonly who: Assignee }
  | { readonly type: 'assigned' }
  | { readonly type: 'shared' }
  | { readonly type: 'recurring' }
  | { readonly type: 'subtask' };

/** One comma-separated list: its expression and the text it came from. */
export interface FilterList {
  readonly source: string;
  readonly expression: FilterNode;
}
