import type { Dialect } from '@doable/contracts-common';
import { FIRST_GENERATION_CALLS, FIRST_GENERATION_SYNC_CALLS, FIRST_GENERATION_WRITES, SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { AUTH_ROUTES } from './auth-routes';
import { MCP_ROUTES } from './mcp-routes';
import { REST_ROUTES } from './rest-routes';
import type { HttpMethod, Route } from './route';
import { UPLOAD_ROUTES } from './upload-routes';

export type { HttpMethod, Route } from './route';

function decodeParam(name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new DomainError('INVALID_ARGUMENT_VALUE', `Malformed path parameter: ${name}`, { argument: name });
  }
}

/**
 * Dialects whose clients may send the token as a `token` form field (sync-interface §5.1:
 * v8 and older).
 */
const FORM_TOKEN_DIALECTS: ReadonlySet<Dialect> = new Set<Dialect>(['sync-v8', 'sync-v7', 'sync-v6']);

/** Dialects whose clients send the token as a query or form parameter (`token`, `api_token`): the first generation only. */
const LEGACY_TOKEN_DIALECTS: ReadonlySet<Dialect> = new Set<Dialect>(['first-generation']);

function withTokenPlaces(route: Route): Route {
  if (FORM_TOKEN_DIALECTS.has(route.dialect)) return { ...route, formToken: true };
  if (LEGACY_TOKEN_DIALECTS.has(route.dialect) && route.auth === 'bearer') return { ...route, legacyToken: true };
  return route;
}

/** An import is one command over up to a few hundred rows: seconds, not the default deadline's margin. */
const IMPORT_TIMEOUT_MS = 60_000;

/** The largest account import file (a backup ZIP or a full sync's JSON), read whole by sync to be parsed. */
const IMPORT_FILE_LIMIT_BYTES = 100 * 1024 * 1024;
/** An import of a large account runs thousands of commands, 100 per request. */
const ACCOUNT_IMPORT_TIMEOUT_MS = 5 * 60_000;

/**
 * Routes are data: adding an endpoint is adding a row. The gateway holds no domain logic:
 * it authenticates, limits, and forwards to the subject with the dialect named here.
 */
export const ROUTES: readonly Route[] = [...syncRoutes(), ...templateRoutes(), ...firstGenerationRoutes(), ...AUTH_ROUTES, ...REST_ROUTES, ...UPLOAD_ROUTES, ...MCP_ROUTES].map(withTokenPlaces);

/** The Sync API and its satellites (completed history, quick add), served by the sync service. */
function syncRoutes(): Route[] {
  return [
    { method: 'POST', path: '/sync/v9/sync', subject: SyncSubjects.edge, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'POST', path: '/api/v1/sync', subject: SyncSubjects.edge, dialect: 'sync-api-v1', auth: 'bearer' },
    // v8 is POST only: its docs say "Sync API requests should be made in HTTP POST" and its SDK
    // (todoist-python) only posts; no GET.
    { method: 'POST', path: '/sync/v8/sync', subject: SyncSubjects.edge, dialect: 'sync-v8', auth: 'bearer' },
    // Sync v7 was documented at both spellings (sync-interface §9); API v6 only upper-case.
    { method: 'POST', path: '/API/v7/sync', subject: SyncSubjects.edge, dialect: 'sync-v7', auth: 'bearer' },
    { method: 'POST', path: '/api/v7/sync', subject: SyncSubjects.edge, dialect: 'sync-v7', auth: 'bearer' },
    { method: 'POST', path: '/API/v6/sync', subject: SyncSubjects.edge, dialect: 'sync-v6', auth: 'bearer' },
    { method: 'GET', path: '/sync/v9/completed/get_all', subject: SyncSubjects.completed, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'POST', path: '/sync/v9/completed/get_all', subject: SyncSubjects.completed, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'GET', path: '/api/v1/tasks/completed/by_completion_date', subject: SyncSubjects.completed, dialect: 'rest-api-v1', auth: 'bearer' },
    { method: 'GET', path: '/api/v1/tasks/completed/by_due_date', subject: SyncSubjects.completed, dialect: 'rest-api-v1', auth: 'bearer' },
    { method: 'GET', path: '/api/v1/tasks/completed', subject: SyncSubjects.completed, dialect: 'rest-api-v1', auth: 'bearer' },
    { method: 'GET', path: '/api/v1/completed/search', subject: SyncSubjects.completed, dialect: 'rest-api-v1', auth: 'bearer' },
    { method: 'GET', path: '/sync/v9/projects/get_archived', subject: SyncSubjects.archived, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'POST', path: '/sync/v9/projects/get_archived', subject: SyncSubjects.archived, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'GET', path: '/sync/v9/archive/sections', subject: SyncSubjects.archived, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'POST', path: '/sync/v9/archive/sections', subject: SyncSubjects.archived, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'GET', path: '/sync/v9/archive/items', subject: SyncSubjects.archived, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'POST', path: '/sync/v9/archive/items', subject: SyncSubjects.archived, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'GET', path: '/sync/v9/completed/get_stats', subject: SyncSubjects.completed, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'POST', path: '/sync/v9/completed/get_stats', subject: SyncSubjects.completed, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'GET', path: '/sync/v9/get_productivity_stats', subject: SyncSubjects.completed, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'POST', path: '/sync/v9/get_productivity_stats', subject: SyncSubjects.completed, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'POST', path: '/sync/v8/quick/add', subject: SyncSubjects.quickAdd, dialect: 'sync-v8', auth: 'bearer' },
    { method: 'POST', path: '/sync/v9/quick/add', subject: SyncSubjects.quickAdd, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'POST', path: '/API/v7/quick/add', subject: SyncSubjects.quickAdd, dialect: 'sync-v7', auth: 'bearer' },
    { method: 'POST', path: '/api/v1/tasks/quick', subject: SyncSubjects.quickAdd, dialect: 'rest-api-v1', auth: 'bearer' },
    { method: 'GET', path: '/sync/v9/activity/get', subject: SyncSubjects.activity, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'POST', path: '/sync/v9/activity/get', subject: SyncSubjects.activity, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'GET', path: '/sync/v8/activity/get', subject: SyncSubjects.activity, dialect: 'sync-v8', auth: 'bearer' },
    { method: 'POST', path: '/sync/v8/activity/get', subject: SyncSubjects.activity, dialect: 'sync-v8', auth: 'bearer' },
    { method: 'POST', path: '/API/v7/activity/get', subject: SyncSubjects.activity, dialect: 'sync-v7', auth: 'bearer' },
    { method: 'GET', path: '/api/v1/activities', subject: SyncSubjects.activity, dialect: 'rest-api-v1', auth: 'bearer' },
    ...['sync-v8', 'sync-v9'].flatMap((dialect) =>
      (['GET', 'POST'] as const).map((method): Route => ({ method, path: `/sync/${dialect.slice(5)}/backups/get`, subject: SyncSubjects.backups, dialect: dialect as Dialect, auth: 'bearer' })),
    ),
    // update_notification_setting (public-api-facts §1.4): the v7–v9 endpoint and its api/v1 successor.
    { method: 'POST', path: '/sync/v9/notification_settings/update', subject: SyncSubjects.notificationSettings, dialect: 'sync-v9', auth: 'bearer' },
    { method: 'POST', path: '/sync/v8/notification_settings/update', subject: SyncSubjects.notificationSettings, dialect: 'sync-v8', auth: 'bearer' },
    { method: 'POST', path: '/API/v7/notification_settings/update', subject: SyncSubjects.notificationSettings, dialect: 'sync-v7', auth: 'bearer' },
    { method: 'PUT', path: '/api/v1/notification_setting', subject: SyncSubjects.notificationSettings, dialect: 'rest-api-v1', auth: 'bearer' },
    { method: 'GET', path: '/api/v1/backups', subject: SyncSubjects.backups, dialect: 'rest-api-v1', auth: 'bearer' },
    { method: 'GET', path: '/api/v1/backups/download', subject: SyncSubjects.backups, dialect: 'rest-api-v1', auth: 'bearer' },
    // Doable's own: a Todoist account's backup ZIP or full-sync JSON, streamed into the blob store.
    {
      method: 'POST',
      path: '/api/v1/import/todoist',
      subject: SyncSubjects.accountImport,
      dialect: 'rest-api-v1',
      auth: 'bearer',
      multipart: 'stream',
      streamLimitBytes: IMPORT_FILE_LIMIT_BYTES,
      timeoutMs: ACCOUNT_IMPORT_TIMEOUT_MS,
    },
  ];
}

/**
 * Project templates (public-api-facts §1.4), served by sync. Imports take the file as inline
 * multipart (one small CSV, parsed at the edge into `body.file`); a form or JSON body with a
 * `file` text field works too. v8 and v9 answer each call over GET and POST, as their other
 * satellites do; exports only read.
 */
function templateRoutes(): Route[] {
  const subject = SyncSubjects.templates;
  const legacy = (['sync-v8', 'sync-v9'] as const).flatMap((dialect): Route[] => {
    const prefix = `/sync/${dialect === 'sync-v8' ? 'v8' : 'v9'}/templates`;
    return [
      { method: 'POST', path: `${prefix}/import_into_project`, subject, dialect, auth: 'bearer', multipart: 'inline', timeoutMs: IMPORT_TIMEOUT_MS },
      ...(['GET', 'POST'] as const).flatMap((method): Route[] => [
        { method, path: `${prefix}/export_as_file`, subject, dialect, auth: 'bearer' },
        { method, path: `${prefix}/export_as_url`, subject, dialect, auth: 'bearer' },
      ]),
    ];
  });
  return [
    ...legacy,
    { method: 'POST', path: '/api/v1/templates/import_into_project_from_file', subject, dialect: 'rest-api-v1', auth: 'bearer', multipart: 'inline', timeoutMs: IMPORT_TIMEOUT_MS },
    { method: 'POST', path: '/api/v1/templates/create_project_from_file', subject, dialect: 'rest-api-v1', auth: 'bearer', multipart: 'inline', timeoutMs: IMPORT_TIMEOUT_MS },
    { method: 'POST', path: '/api/v1/templates/import_into_project_from_template_id', subject, dialect: 'rest-api-v1', auth: 'bearer' },
    { method: 'GET', path: '/api/v1/templates/file', subject, dialect: 'rest-api-v1', auth: 'bearer' },
    { method: 'GET', path: '/api/v1/templates/url', subject, dialect: 'rest-api-v1', auth: 'bearer' },
  ];
}

/**
 * The first generation (public-api-facts §1.8): `/API/<call>` and `/TodoistSync/<version>/<call>`,
 * each over GET and POST. Only the paths old clients used, upper-case `/API/`: a lower-case
 * `/api/<call>` is not served (it would sit beside `/api/v1/...` and `/api/v7/...` with nothing
 * to gain; no old client wrote it). `login` takes credentials, not a token: auth-oauth answers
 * it (it holds the passwords), so its routes come from the auth list (AUTH_ROUTES).
 */
function firstGenerationRoutes(): Route[] {
  const subject = SyncSubjects.firstGeneration;
  const methods = ['GET', 'POST'] as const;
  return [
    ...FIRST_GENERATION_CALLS.filter((call) => call !== 'login').flatMap((call) =>
      methods.map((method): Route => ({ method, path: `/API/${call}`, subject, dialect: 'first-generation', auth: 'bearer', ...(method === 'GET' && FIRST_GENERATION_WRITES.has(call) ? { writesOnGet: true } : {}) })),
    ),
    ...FIRST_GENERATION_SYNC_CALLS.flatMap((call) =>
      methods.map((method): Route => ({
        method,
        path: `/TodoistSync/:version/${call}`,
        subject,
        dialect: 'first-generation',
        auth: 'bearer',
        ...(method === 'GET' && FIRST_GENERATION_WRITES.has(call) ? { writesOnGet: true } : {}),
      })),
    ),
  ];
}

export interface RouteMatch {
  readonly route: Route;
  readonly params: Record<string, string>;
}

export type Resolution = { readonly kind: 'match'; readonly match: RouteMatch } | { readonly kind: 'method-not-allowed'; readonly allowed: HttpMethod[] } | { readonly kind: 'none' };

interface Compiled {
  readonly route: Route;
  readonly pattern: RegExp;
  readonly names: string[];
}

export class RouteTable {
  private readonly compiled: Compiled[];

  constructor(routes: readonly Route[] = ROUTES) {
    this.compiled = routes.map((route) => {
      const names: string[] = [];
      const source = route.path
        .split('/')
        .map((segment) => {
          if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          names.push(segment.slice(1));
          return '([^/]+)';
        })
        .join('/');
      return { route, pattern: new RegExp(`^${source}/?$`), names };
    });
  }

  resolve(method: string, path: string): Resolution {
    const allowed: HttpMethod[] = [];
    for (const { route, pattern, names } of this.compiled) {
      const found = pattern.exec(path);
      if (!found) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      const params = Object.fromEntries(names.map((name, index) => [name, decodeParam(name, found[index + 1])]));
      return { kind: 'match', match: { route, params } };
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'none' };
  }
}
