import { CALENDAR_RANGE_MESSAGE, isInCalendarRange, isObjectId, objectIdSchema } from '@doable/contracts-common';
import { EVENT_OBJECT_TYPES, OBJECT_EVENT_TYPES } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';

/** One `object_event_types` entry: `item:` (any event of items), `:deleted` (deletions of anything), `note:added`. */
export interface ObjectEventPair {
  readonly objectType: string | null;
  readonly eventType: string | null;
}

/** What selects events, whichever reader asked (v9/v8/v7 `activity/get`, api/v1 `activities`). */
export interface ActivityFilter {
  readonly objectType: string | null;
  readonly objectId: string | null;
  readonly eventType: string | null;
  /** Any of these pairs (an empty list is no restriction). */
  readonly objectEventTypes: readonly ObjectEventPair[];
  readonly parentProjectId: string | null;
  readonly parentItemId: string | null;
  readonly initiatorId: string | null;
  readonly workspaceId: string | null;
  /** Events at or after this instant (inclusive). */
  readonly since: Date | null;
  /** Events before this instant (exclusive). */
  readonly until: Date | null;
}

/** `activity/get`: offset paging over a filter (a week of it with `page`). */
export interface ActivityGetQuery extends ActivityFilter {
  readonly limit: number;
  readonly offset: number;
}

/** Where the next api/v1 page starts: after this (event date, id). */
export interface ActivityPosition {
  readonly date: string;
  readonly id: string;
}

/** api/v1 `activities`: cursor paging, and what to annotate. */
export interface ActivitiesQuery extends ActivityFilter {
  readonly limit: number;
  readonly after: ActivityPosition | null;
  readonly annotateNotes: boolean;
  readonly annotateParents: boolean;
}

export const DEFAULT_LIMIT = 30;
export const MAX_LIMIT = 100;
const WEEK = 7 * 86_400_000;
/** The furthest back `page` may reach (about ten years of weeks): beyond it no date is real. */
const MAX_PAGE = 520;

const one = (value: unknown) => (Array.isArray(value) ? (value[0] as unknown) : value);
/** An id as a query string or a JSON body sends it (v9 clients send numbers too). */
const id = z.union([z.string(), z.number().int().positive()]).transform(String).pipe(objectIdSchema);
const objectType = z.enum(EVENT_OBJECT_TYPES);
const eventType = z.enum(OBJECT_EVENT_TYPES);
const flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']), z.literal(0), z.literal(1)]).transform((value) => value === true || value === 'true' || value === '1' || value === 1);
const date = z.string().refine((value) => isInCalendarRange(new Date(value)), `a date or date-time (${CALENDAR_RANGE_MESSAGE})`);

function invalid(argument: string, explanation: string): DomainError {
  return new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${argument}`, { argument, explanation });
}

function field<T>(params: Record<string, unknown>, name: string, schema: z.ZodType<T>): T | undefined {
  const value = one(params[name]);
  if (value === undefined || value === null || value === '') return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(name, parsed.error.issues[0]?.message ?? 'invalid');
  return parsed.data;
}

/**
 * `object_event_types`: a JSON array (or, in a query string, the array itself) of
 * `object_type:event_type` strings where either side may be empty (`item:`, `:deleted`).
 */
export function parseObjectEventTypes(value: unknown): ObjectEventPair[] {
  let list: unknown = value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text.startsWith('[')) {
      try {
        list = JSON.parse(text);
      } catch {
        throw invalid('object_event_types', 'a JSON array of "object_type:event_type" strings');
      }
    } else list = [text];
  }
  if (!Array.isArray(list) || list.length > 50) throw invalid('object_event_types', 'a JSON array of at most 50 "object_type:event_type" strings');
  return list.map((entry) => {
    if (typeof entry !== 'string' || !entry.includes(':')) throw invalid('object_event_types', 'each entry is "object_type:event_type" (either side may be empty)');
    const [objectPart, eventPart] = entry.split(':', 2) as [string, string];
    if (objectPart !== '' && !objectType.safeParse(objectPart).success) throw invalid('object_event_types', `unknown object type ${JSON.stringify(objectPart.slice(0, 40))}`);
    if (eventPart !== '' && !eventType.safeParse(eventPart).success) throw invalid('object_event_types', `unknown event type ${JSON.stringify(eventPart.slice(0, 40))}`);
    return { objectType: objectPart || null, eventType: eventPart || null };
  });
}

function parseFilter(params: Record<string, unknown>): ActivityFilter {
  const rawPairs = params['object_event_types'];
  return {
    objectType: field(params, 'object_type', objectType) ?? null,
    objectId: field(params, 'object_id', id) ?? null,
    eventType: field(params, 'event_type', eventType) ?? null,
    objectEventTypes: rawPairs === undefined || rawPairs === null || rawPairs === '' ? [] : parseObjectEventTypes(Array.isArray(rawPairs) && rawPairs.every((entry) => typeof entry === 'string' && !entry.startsWith('[')) ? rawPairs : one(rawPairs)),
    parentProjectId: field(params, 'parent_project_id', id) ?? null,
    parentItemId: field(params, 'parent_item_id', id) ?? null,
    initiatorId: field(params, 'initiator_id', id) ?? null,
    workspaceId: null,
    since: null,
    until: null,
  };
}

/** The Monday (00:00 UTC) that starts the week `now` is in. */
function weekStart(now: Date): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000);
}

/**
 * v9/v8/v7 `activity/get`. `page` counts weeks back (0: this week, from Monday 00:00 UTC; 1:
 * the week before); without it every event the plan keeps. `limit` 1..100 (30), `offset` >= 0.
 */
export function parseActivityGet(params: Record<string, unknown>, now: Date = new Date()): ActivityGetQuery {
  const filter = parseFilter(params);
  const page = field(params, 'page', z.coerce.number().int().min(0).max(MAX_PAGE));
  const window = page === undefined ? { since: null, until: null } : { since: new Date(weekStart(now).getTime() - page * WEEK), until: page === 0 ? null : new Date(weekStart(now).getTime() - (page - 1) * WEEK) };
  return {
    ...filter,
    ...window,
    limit: field(params, 'limit', z.coerce.number().int().min(1).max(MAX_LIMIT)) ?? DEFAULT_LIMIT,
    offset: field(params, 'offset', z.coerce.number().int().min(0).max(1_000_000)) ?? 0,
  };
}

/** api/v1 `activities`: the same filters, `date_from`/`date_to`, `workspace_id`, a cursor, `limit` 1..100. */
export function parseActivities(params: Record<string, unknown>): ActivitiesQuery {
  const filter = parseFilter(params);
  const from = field(params, 'date_from', date);
  const to = field(params, 'date_to', date);
  if (from !== undefined && to !== undefined && new Date(to) <= new Date(from)) throw invalid('date_to', 'must be after date_from');
  const cursor = field(params, 'cursor', z.string().max(200));
  return {
    ...filter,
    workspaceId: field(params, 'workspace_id', id) ?? null,
    since: from === undefined ? null : new Date(from),
    until: to === undefined ? null : new Date(to),
    limit: field(params, 'limit', z.coerce.number().int().min(1).max(MAX_LIMIT)) ?? DEFAULT_LIMIT,
    after: cursor === undefined ? null : decodeActivityCursor(cursor),
    annotateNotes: field(params, 'annotate_notes', flag) ?? false,
    annotateParents: field(params, 'annotate_parents', flag) ?? false,
  };
}

/** An opaque position: the last event's date and id (the order is newest first, then id). */
export function encodeActivityCursor(position: ActivityPosition): string {
  return Buffer.from(JSON.stringify([position.date, position.id]), 'utf8').toString('base64url');
}

export function decodeActivityCursor(cursor: string): ActivityPosition {
  const refused = new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid cursor', { argument: 'cursor' });
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refused;
  }
  if (!Array.isArray(parts) || parts.length !== 2 || typeof parts[0] !== 'string' || typeof parts[1] !== 'string' || !isObjectId(parts[1])) throw refused;
  // Handed to PostgreSQL as a timestamp: only one it can read (a forged cursor is a 400, not a failed cast).
  const date = new Date(parts[0]);
  if (!isInCalendarRange(date)) throw refused;
  return { date: date.toISOString(), id: parts[1] };
}
