/**
 * What every answer to a fuzzed request must be. Never a 5xx: a client's input is never an
 * outage. A refusal carries its endpoint family's code: the Todoist error body
 * (`error_tag` and a numeric `error_code`) everywhere; OAuth's `{error}` where RFC 6749/7009/7591
 * define the answer; a JSON-RPC error on /mcp; a page re-rendered with its form's error on the HTML pages.
 */
export interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly body: unknown;
}

export interface Verdict {
  /** Why the answer breaks the contract, or undefined when it keeps it. */
  readonly defect?: string;
  /** The request changed nothing: the user's data must be as it was. */
  readonly refused: boolean;
}

// The web app's session endpoints (`/auth/app/token`, `/auth/app/sign-out`) hand out and end its
// tokens, so they refuse as a token endpoint does (RFC 6749 `{error, error_description}`).
const OAUTH_BODIES = /^\/(oauth\/access_token|oauth\/authorize|oauth\/register|api\/v1\/revoke|api\/v1\/access_tokens|sync\/v[89]\/access_tokens|auth\/app\/(token|sign-out)$)/;
const HTML_PAGES = /^\/(auth\/|oauth\/authorize)/;
/** The assistant server refuses as its transport defines: a JSON-RPC error with a numeric code (a 406 for a wrong Accept). */
const MCP = /^\/mcp$/;
const SYNC = /^\/(sync\/v9\/sync|api\/v1\/sync)$/;
/** The first generation refuses with its help text's error strings (`"ERROR_PROJECT_NOT_FOUND"`), as JSON strings. */
const FIRST_GENERATION = /^\/(API\/|TodoistSync\/)/;
const FIRST_GENERATION_TAG = /^(LOGIN_ERROR|UNKNOWN_ERROR|ERROR_[A-Z_]+)$/;
/** The first generation writes over GET too (addItem?content=...): there a GET that succeeded may have changed data. */
const WRITES_ON_GET = /^\/(API\/(addItem|updateItem|deleteItems|completeItems)|TodoistSync\/[^/]+\/(sync|syncAndGetUpdated|syncAndGet))\/?$/;

function isTodoistError(value: unknown): value is { error_tag: string; error_code: number; http_code?: number } {
  const error = value as { error_tag?: unknown; error_code?: unknown } | null;
  return typeof error === 'object' && error !== null && typeof error.error_tag === 'string' && typeof error.error_code === 'number';
}

function isCodedRefusal(path: string, answer: Answer): boolean {
  if (isTodoistError(answer.body)) return true;
  if (OAUTH_BODIES.test(path) && typeof (answer.body as { error?: unknown } | null)?.error === 'string') return true;
  if (FIRST_GENERATION.test(path) && typeof answer.body === 'string' && FIRST_GENERATION_TAG.test(answer.body)) return true;
  if (MCP.test(path) && typeof (answer.body as { error?: { code?: unknown } } | null)?.error?.code === 'number') return true;
  return HTML_PAGES.test(path) && answer.contentType.startsWith('text/html');
}

/** A sync_status value: `ok`, a coded client error, or a per-id map of those. */
function statusDefect(status: unknown): string | undefined {
  if (status === 'ok') return undefined;
  if (isTodoistError(status)) return (status.http_code ?? 400) >= 500 ? `command answered ${status.error_tag} (${status.http_code})` : undefined;
  if (typeof status === 'object' && status !== null) {
    for (const value of Object.values(status)) {
      if (value === 'ok') continue;
      if (!isTodoistError(value)) return `per-id status is neither ok nor coded: ${JSON.stringify(value)}`;
      if ((value.http_code ?? 400) >= 500) return `per-id status ${value.error_tag} (${value.http_code})`;
    }
    return undefined;
  }
  return `status is neither ok nor coded: ${JSON.stringify(status)}`;
}

function refusedStatus(status: unknown): boolean {
  if (status === 'ok') return false;
  if (isTodoistError(status)) return true;
  return Object.values(status as Record<string, unknown>).every((value) => value !== 'ok');
}

export function judge(method: string, path: string, answer: Answer): Verdict {
  const pathOnly = path.split('?')[0];
  if (answer.status >= 500) {
    const tag = isTodoistError(answer.body) ? answer.body.error_tag : JSON.stringify(answer.body)?.slice(0, 120);
    return { defect: `HTTP ${answer.status} ${tag}`, refused: true };
  }
  if (answer.status >= 400) {
    return { defect: isCodedRefusal(pathOnly, answer) ? undefined : `HTTP ${answer.status} without a code: ${String(JSON.stringify(answer.body)).slice(0, 120)}`, refused: true };
  }
  if (SYNC.test(pathOnly) && method === 'POST' && answer.status === 200) {
    const statuses = Object.values((answer.body as { sync_status?: Record<string, unknown> } | null)?.sync_status ?? {});
    for (const status of statuses) {
      const defect = statusDefect(status);
      if (defect) return { defect, refused: false };
    }
    return { refused: statuses.length > 0 && statuses.every(refusedStatus) };
  }
  return { refused: method === 'GET' && !WRITES_ON_GET.test(pathOnly) };
}
