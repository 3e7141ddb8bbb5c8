import { CALENDAR_RANGE_MESSAGE, isInCalendarRange, objectIdSchema } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';

/** Which date bounds the window: when tasks were completed, or when they were due. */
export type CompletedBy = 'completion' | 'due';

export interface CompletedQuery {
  readonly by: CompletedBy;
  readonly since: Date;
  readonly until: Date;
  readonly projectId: string | null;
  readonly sectionId: string | null;
  readonly parentId: string | null;
  /** The filter language over the completed tasks (`filter_query`), in `filterLang` dates. */
  readonly filterQuery: string | null;
  readonly filterLang: string | null;
  /** Only tasks of this workspace's projects (those the user sees). */
  readonly workspaceId: string | null;
  readonly limit: number;
}

const DAY = 86_400_000;
/** The public service's windows: three months by completion date, six weeks by due date. */
const MAX_WINDOW_DAYS: Record<CompletedBy, number> = { completion: 92, due: 42 };
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

const one = (value: unknown) => (Array.isArray(value) ? (value[0] as unknown) : value);
const id = objectIdSchema;
const date = z.string().refine((value) => isInCalendarRange(new Date(value)), `a date or date-time (${CALENDAR_RANGE_MESSAGE})`);

function invalid(argument: string, explanation: string): DomainError {
  return new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${argument}`, { argument, explanation });
}

function field<T>(query: Record<string, unknown>, name: string, schema: z.ZodType<T>): T | undefined {
  const value = one(query[name]);
  if (value === undefined || value === '') return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(name, parsed.error.issues[0]?.message ?? 'invalid');
  return parsed.data;
}

/** api/v1 `tasks/completed/by_*`: `since` and `until` are required and bound the window. */
export function parseCompletedQuery(by: CompletedBy, query: Record<string, unknown>): CompletedQuery {
  const since = field(query, 'since', date);
  const until = field(query, 'until', date);
  if (since === undefined) throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: since', { argument: 'since' });
  if (until === undefined) throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: until', { argument: 'until' });
  const window = { since: new Date(since), until: new Date(until) };
  if (window.until <= window.since) throw invalid('until', 'must be after since');
  if (window.until.getTime() - window.since.getTime() > MAX_WINDOW_DAYS[by] * DAY) throw invalid('until', `the window is at most ${MAX_WINDOW_DAYS[by]} days`);
  return {
    by,
    ...window,
    projectId: field(query, 'project_id', id) ?? null,
    sectionId: field(query, 'section_id', id) ?? null,
    parentId: field(query, 'parent_id', id) ?? null,
    filterQuery: field(query, 'filter_query', z.string().max(1024)) ?? null,
    filterLang: field(query, 'filter_lang', z.string().max(8)) ?? null,
    workspaceId: field(query, 'workspace_id', id) ?? null,
    limit: field(query, 'limit', z.coerce.number().int().min(1).max(MAX_LIMIT)) ?? DEFAULT_LIMIT,
  };
}

export interface CompletedSearch {
  readonly query: string;
  readonly limit: number;
}

/** api/v1 `completed/search`: a required text, newest completion first. */
export function parseCompletedSearch(params: Record<string, unknown>): CompletedSearch {
  const query = field(params, 'query', z.string().max(1024));
  if (query === undefined || query.trim() === '') throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: query', { argument: 'query' });
  return { query: query.trim(), limit: field(params, 'limit', z.coerce.number().int().min(1).max(MAX_LIMIT)) ?? DEFAULT_LIMIT };
}

export interface GetAllQuery {
  readonly projectId: string | null;
  /** api/v1 `tasks/completed` also filters by a label name. */
  readonly label: string | null;
  readonly since: Date | null;
  readonly until: Date | null;
  readonly limit: number;
  readonly offset: number;
}

/** v9 `completed/get_all`: optional bounds, offset paging (default 30, at most 200). */
export function parseGetAllQuery(params: Record<string, unknown>): GetAllQuery {
  const since = field(params, 'since', date);
  const until = field(params, 'until', date);
  return {
    projectId: field(params, 'project_id', id) ?? null,
    label: field(params, 'label', z.string().max(1024)) ?? null,
    since: since ? new Date(since) : null,
    until: until ? new Date(until) : null,
    limit: field(params, 'limit', z.coerce.number().int().min(1).max(MAX_LIMIT)) ?? 30,
    offset: field(params, 'offset', z.coerce.number().int().min(0)) ?? 0,
  };
}
