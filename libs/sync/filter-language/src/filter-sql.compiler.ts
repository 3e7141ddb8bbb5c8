import { CALENDAR_RANGE_MESSAGE, isInCalendarRange } from '@doable/contracts-common';
import { VISIBLE_PROJECTS } from '@doable/contracts-sync';
import { DateTime } from 'luxon';
import { isInCalendar } from '@doable/sync-dates';
import type { Assignee, DateComparison, FilterNode, FilterTerm, NamePattern } from './filter.ast';
import type { FilterContext } from './filter-context';
import { filterZone, type FilterDate, resolveFilterDate, shiftDay, startOfUserDay, userToday } from './filter-dates';
import { invalidFilter } from './filter-errors';

/** The alias the WHERE fragment uses for sync.items: the caller's FROM must be `sync.items AS item`. */
export const FILTER_ITEM_ALIAS = 'item';

/** A WHERE fragment over `sync.items AS item` and its parameters; `$1` is always the user id. */
export interface CompiledFilter {
  readonly where: string;
  readonly params: readonly unknown[];
}

/**
 * The shapes the parsers store (a day, a floating time, a UTC instant) with a year in the
 * calendar (0001-9999). A stored date of any other shape (year 0000, a five-digit year, written
 * before the calendar rule existed) reads as no date at all: the casts below never see it, so
 * one bad row cannot fail every date filter of its user. Days are valid per month because the
 * parsers checked them; the pattern only has to keep the casts in their range.
 */
export const STORED_DUE_DATE = '^(000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z?)?$';

/**
 * The stored due date when it has one of those shapes, else NULL: sync.items keeps it in this
 * generated column (migration DueDateText, which writes the pattern out). The expressions below
 * name it several times (`today | overdue` nine); matching the pattern per task at read time, once
 * per task in a sub-select, still cost PostgreSQL more than the baseline's whole WHERE (bench S5,
 * issue #48: 4 ms against 1.25 ms for 5,000 tasks; 1.5 ms with the column).
 */
const DUE_TEXT = 'item.due_date_text';

const HAS_TIME = `length(${DUE_TEXT}) > 10`;

/** Collects parameters so every value reaches PostgreSQL as a bind value, never as SQL text. */
class SqlParams {
  readonly values: unknown[];
  private readonly memo = new Map<string, string>();

  constructor(userId: string) {
    this.values = [userId];
  }

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** One placeholder per distinct value of a kind (the zone, today, now). */
  once(key: string, value: unknown): string {
    const known = this.memo.get(key);
    if (known) return known;
    const placeholder = this.add(value);
    this.memo.set(key, placeholder);
    return placeholder;
  }
}

/** `*` becomes `%`; LIKE's own metacharacters in names are escaped (backslash is PostgreSQL's default LIKE escape). */
export function likePattern(name: NamePattern): string {
  return name.segments.map((segment) => segment.replace(/[\\%_]/g, (ch) => `\\${ch}`)).join('%');
}

class FilterCompiler {
  private readonly params: SqlParams;
  private readonly today: string;

  constructor(private readonly ctx: FilterContext) {
    this.params = new SqlParams(ctx.userId);
    this.today = userToday(ctx);
  }

  compile(node: FilterNode): CompiledFilter {
    return { where: this.node(node), params: this.params.values };
  }

  /** Several lists as one fragment matching any of them, sharing one parameter list. */
  compileAny(nodes: readonly FilterNode[]): CompiledFilter {
    return { where: `(${nodes.map((node) => this.node(node)).join(' OR ')})`, params: this.params.values };
  }

  private node(node: FilterNode): string {
    switch (node.kind) {
      case 'and':
        return `(${this.node(node.left)} AND ${this.node(node.right)})`;
      case 'or':
        return `(${this.node(node.left)} OR ${this.node(node.right)})`;
      case 'not':
        return `(NOT ${this.node(node.operand)})`;
      case 'term':
        // Terms are two-valued (never NULL), so `!` is the complement of the set.
        return this.term(node.term);
    }
  }

  private get zone(): string {
    return `${this.params.once('zone', filterZone(this.ctx))}::text`;
  }

  // Every date a filter names is bound here: one outside the calendar is a bad filter, not a bad cast.
  private day(value: string): string {
    if (!isInCalendar(value)) throw invalidFilter(`Invalid filter date: ${CALENDAR_RANGE_MESSAGE}`, { date: value });
    return `${this.params.once(`day:${value}`, value)}::date`;
  }

  private instant(value: Date): string {
    if (!isInCalendarRange(value)) throw invalidFilter(`Invalid filter date: ${CALENDAR_RANGE_MESSAGE}`);
    return `${this.params.add(value.toISOString())}::timestamptz`;
  }

  private get now(): string {
    return `${this.params.once('now', this.ctx.now.toISOString())}::timestamptz`;
  }

  /** The due's day on the user's wall clock: fixed (…Z) dues are converted, floating and date-only ones read as they are. */
  private get dueDay(): string {
    return `(CASE WHEN right(${DUE_TEXT}, 1) = 'Z' THEN ((${DUE_TEXT})::timestamptz AT TIME ZONE ${this.zone})::date ELSE left(${DUE_TEXT}, 10)::date END)`;
  }

  private get dueInstant(): string {
    return `(CASE WHEN right(${DUE_TEXT}, 1) = 'Z' THEN (${DUE_TEXT})::timestamptz ELSE (${DUE_TEXT})::timestamp AT TIME ZONE ${this.zone} END)`;
  }

  private like(name: NamePattern): string {
    return this.params.add(likePattern(name));
  }

  private term(term: FilterTerm): string {
    switch (term.type) {
      case 'all':
        return 'TRUE';
      case 'overdue':
        // Date-only dues are overdue from the next day on; timed ones from their instant.
        return `COALESCE(CASE WHEN ${HAS_TIME} THEN ${this.dueInstant} < ${this.now} ELSE left(${DUE_TEXT}, 10)::date < ${this.day(this.today)} END, false)`;
      case 'noDate':
        return 'item.due IS NULL';
      case 'noTime':
        return `(item.due IS NOT NULL AND NOT ${HAS_TIME})`;
      case 'relativeDay':
        return this.dueOnDay(shiftDay(this.today, term.offset));
      case 'dayRange': {
        const [from, to] = term.days > 0 ? [this.today, shiftDay(this.today, term.days - 1)] : [shiftDay(this.today, term.days), shiftDay(this.today, -1)];
        return `COALESCE(${this.dueDay} BETWEEN ${this.day(from)} AND ${this.day(to)}, false)`;
      }
      case 'date': {
        const date = resolveFilterDate(term.phrase, this.ctx);
        return date === null ? 'item.due IS NULL' : this.dueOnDay(date.day);
      }
      case 'due': {
        const date = resolveFilterDate(term.phrase, this.ctx);
        if (date === null && term.comparison === 'on') return 'item.due IS NULL';
        return this.dueCompared(term.comparison, date ?? this.noDateOperand('due', term.comparison, term.phrase));
      }
      case 'created': {
        const date = resolveFilterDate(term.phrase, this.ctx);
        return this.createdCompared(term.comparison, pastCalendarDate(date ?? this.noDateOperand('created', term.comparison, term.phrase), term.phrase, this.today));
      }
      case 'priority':
        // p1 is the highest, which the API stores as priority 4.
        return `item.priority = ${5 - term.level}`;
      case 'project':
        return term.withSubprojects ? this.projectTree(term.name) : `EXISTS (SELECT 1 FROM sync.projects fp WHERE fp.id = item.project_id AND fp.name ILIKE ${this.like(term.name)})`;
      case 'section':
        return `EXISTS (SELECT 1 FROM sync.sections fs WHERE fs.id = item.section_id AND fs.name ILIKE ${this.like(term.name)})`;
      case 'label':
        return `EXISTS (SELECT 1 FROM unnest(item.labels) AS fl(name) WHERE fl.name ILIKE ${this.like(term.name)})`;
      case 'noLabels':
        return 'cardinality(item.labels) = 0';
      case 'search':
        return `item.content ILIKE ${this.params.add(`%${likePattern(term.text)}%`)}`;
      case 'assignedTo':
        return this.assignee('item.responsible_uid', term.who);
      case 'assignedBy':
        // Only a task someone is responsible for has been assigned by anyone.
        return `(item.responsible_uid IS NOT NULL AND ${this.assignee('item.assigned_by_uid', term.who)})`;
      case 'assigned':
        return 'item.responsible_uid IS NOT NULL';
      case 'shared':
        // A project with another active member (a departed one leaves it unshared).
        return `EXISTS (SELECT 1 FROM sync.project_members fm WHERE fm.project_id = item.project_id AND fm.user_id <> $1 AND fm.state = 'active')`;
      case 'recurring':
        return `COALESCE((item.due->>'is_recurring')::boolean, false)`;
      case 'subtask':
        return 'item.parent_id IS NOT NULL';
    }
  }

  private noDateOperand(key: string, comparison: DateComparison, phrase: string): never {
    throw invalidFilter(`"${key}${comparison === 'on' ? '' : ` ${comparison}`}:" needs a date, not "${phrase}"`, { query: phrase });
  }

  private dueOnDay(day: string): string {
    return `COALESCE(${this.dueDay} = ${this.day(day)}, false)`;
  }

  /** `due: X` is X's whole day; `before`/`after` compare instants when X has a time, else days. */
  private dueCompared(comparison: DateComparison, date: FilterDate): string {
    switch (comparison) {
      case 'on':
        return this.dueOnDay(date.day);
      case 'before':
        return date.instant
          ? `COALESCE(CASE WHEN ${HAS_TIME} THEN ${this.dueInstant} < ${this.instant(date.instant)} ELSE ${this.dueDay} < ${this.day(date.day)} END, false)`
          : `COALESCE(${this.dueDay} < ${this.day(date.day)}, false)`;
      case 'after':
        return date.instant
          ? `COALESCE(CASE WHEN ${HAS_TIME} THEN ${this.dueInstant} > ${this.instant(date.instant)} ELSE ${this.dueDay} > ${this.day(date.day)} END, false)`
          : `COALESCE(${this.dueDay} > ${this.day(date.day)}, false)`;
    }
  }

  /** Creation instants against the bounds of the user's day (index-friendly: no per-row zone math). */
  private createdCompared(comparison: DateComparison, date: FilterDate): string {
    const dayStart = startOfUserDay(date.day, this.ctx);
    const nextDayStart = startOfUserDay(shiftDay(date.day, 1), this.ctx);
    switch (comparison) {
      case 'on':
        return `(item.added_at >= ${this.instant(dayStart)} AND item.added_at < ${this.instant(nextDayStart)})`;
      case 'before':
        return `item.added_at < ${this.instant(date.instant ?? dayStart)}`;
      case 'after':
        return date.instant ? `item.added_at > ${this.instant(date.instant)}` : `item.added_at >= ${this.instant(nextDayStart)}`;
    }
  }

  /** The named projects the user can see and every project below them. */
  private projectTree(name: NamePattern): string {
    return `item.project_id IN (WITH RECURSIVE fp_tree(id) AS (
        SELECT fp.id FROM sync.projects fp
         WHERE fp.name ILIKE ${this.like(name)} AND NOT fp.is_deleted AND fp.id IN (${VISIBLE_PROJECTS})
        UNION SELECT child.id FROM sync.projects child JOIN fp_tree ON child.parent_id = fp_tree.id WHERE NOT child.is_deleted)
      SELECT fp_tree.id FROM fp_tree)`;
  }

  private assignee(column: string, who: Assignee): string {
    switch (who.kind) {
      case 'me':
        return `COALESCE(${column} = $1, false)`;
      case 'others':
        return `COALESCE(${column} <> $1, false)`;
      case 'name': {
        const pattern = this.like(who.name);
        // A collaborator is named by full name, first name or email, as Todoist's assignee picker shows them.
        return `EXISTS (SELECT 1 FROM sync.users fu WHERE fu.id = ${column}
                  AND (fu.full_name ILIKE ${pattern} OR split_part(fu.full_name, ' ', 1) ILIKE ${pattern} OR fu.email ILIKE ${pattern}))`;
      }
    }
  }
}

/**
 * Creation dates lie in the past, but the due grammar reads a calendar date without a year as the
 * next one ("Nov 17" on 18 November 2026 is 2027-11-17). For `created`, such a date (more than a
 * month ahead, no year written) is taken a year earlier; relative phrases ("tomorrow", "in 3
 * days") stay where they are.
 */
function pastCalendarDate(date: FilterDate, phrase: string, today: string): FilterDate {
  if (/\d{4}/.test(phrase) || date.day <= shiftDay(today, 31)) return date;
  const day = DateTime.fromISO(date.day, { zone: 'UTC' }).minus({ years: 1 }).toFormat('yyyy-MM-dd');
  if (day > today) return date;
  const instant = date.instant ? DateTime.fromJSDate(date.instant).minus({ years: 1 }).toJSDate() : undefined;
  return instant ? { day, instant } : { day };
}

/**
 * One list's expression as a parameterised WHERE fragment over `sync.items AS item`. Names are
 * case-insensitive with `*` wildcards; dates are days on the user's wall clock. It does not
 * restrict to visible or active tasks: the caller's query does (see TaskFilterService).
 */
export function compileFilter(node: FilterNode, ctx: FilterContext): CompiledFilter {
  return new FilterCompiler(ctx).compile(node);
}

/**
 * Several lists (a query's comma lists) as one fragment that matches a task in any of them, with
 * one parameter list ($1 still the user id), for queries that answer one list, not one per list.
 */
export function compileAnyFilter(nodes: readonly FilterNode[], ctx: FilterContext): CompiledFilter {
  return new FilterCompiler(ctx).compileAny(nodes);
}
