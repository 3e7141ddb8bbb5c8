import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import { currentCorrelationId } from './correlation';
import { PRODUCT_VERSION } from './product-version';
import { activeTraceIds } from './spans';

/**
 * Keys whose values are never written to a log, at any depth, in any casing or spelling
 * (`client_secret`, `clientSecret`, `Client-Secret` are one key). Compared after lower-casing
 * and dropping `_` and `-`.
 */
const SECRET_KEYS = new Set([
  'personaltoken',
  'code',
  'codeverifier',
  'csrf',
  'clientsecret',
  'accesstoken',
  'refreshtoken',
  'newtoken',
  'password',
  'token',
  'authorization',
  'cookie',
  'setcookie',
  'session',
  'sessionid',
  // Second factors: a TOTP code is six digits, which `code` would keep as an error code.
  'otp',
  'recoverycode',
  'recoverycodes',
  // A mailed link (password reset, address confirmation) carries a single-use secret (issue #33).
  'link',
]);
/** Whatever ends like these is a secret too (`current_password`, `apiToken`, `webhookSecret`). */
const SECRET_SUFFIXES = ['password', 'token', 'secret'];

export const REDACTED = '[redacted]';

/** How deep a log object is searched; deeper still is cut off rather than written unsearched. */
const MAX_DEPTH = 16;

/**
 * `code` is both an OAuth authorization code (secret) and the usual name of an error's code
 * (`ITEM_NOT_FOUND`, PostgreSQL's `40P01`, Node's `ECONNREFUSED`), which a log must keep to be
 * useful. Error codes are short and upper-case; authorization codes are long random lower-case
 * text, so a value shaped like an error code is kept.
 */
const ERROR_CODE_SHAPE = /^[A-Z0-9_]{1,40}$/;

function isKeptErrorCode(key: string, value: unknown): boolean {
  return key.toLowerCase() === 'code' && ((typeof value === 'string' && ERROR_CODE_SHAPE.test(value)) || typeof value === 'number');
}

export function isSecretKey(key: string): boolean {
  const normalized = key.toLowerCase().replace(/[-_]/g, '');
  return SECRET_KEYS.has(normalized) || SECRET_SUFFIXES.some((suffix) => normalized.endsWith(suffix));
}

/**
 * A copy of a log object with every secret-keyed value replaced, at any depth (pino's own
 * `redact` paths match fixed depths only). Objects without secrets are returned as they are,
 * so the common case copies nothing; the caller's objects are never changed.
 */
export function redactSecrets<T>(value: T): T {
  return scrub(value, 0, new WeakSet()) as T;
}

function scrub(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date || Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return value;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item: unknown) => {
      const next = scrub(item, depth + 1, seen);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? items : value;
  }
  // An error is always copied: its unlogged fields must go even when nothing else is secret.
  const source = value instanceof Error ? errorCopy(value) : (value as Record<string, unknown>);
  let copy: Record<string, unknown> | undefined = value instanceof Error ? source : undefined;
  for (const key of Object.keys(source)) {
    const current = source[key];
    const secret = isSecretKey(key) && !isKeptErrorCode(key, current);
    const next = secret ? (current === undefined || current === null ? current : REDACTED) : scrub(current, depth + 1, seen);
    if (next === current) continue;
    copy ??= { ...source };
    copy[key] = next;
  }
  return copy ?? value;
}

/**
 * Fields of an error that are never logged, whatever their name says: a database error
 * carries the statement and its positional parameters (TypeORM's QueryFailedError: `query`,
 * `parameters`), and the driver's `detail` echoes row values (`Key (email)=(...) already
 * exists`). Redaction by key name cannot see that `$2` was a password hash, so the fields go.
 */
const UNLOGGED_ERROR_FIELDS = new Set(['query', 'parameters', 'detail']);

/**
 * An error's loggable fields, as a plain object pino's err serializer (and JSON.stringify,
 * for an error nested elsewhere in a log object) reads: its name, message, stack, cause and
 * own fields, without the unlogged ones. No prototype, so the serializer takes `name` as the
 * type rather than `Object`.
 */
function errorCopy(error: Error): Record<string, unknown> {
  const copy = Object.create(null) as Record<string, unknown>;
  copy['name'] = error.name;
  copy['message'] = error.message;
  copy['stack'] = error.stack;
  if (error.cause !== undefined) copy['cause'] = error.cause;
  for (const key of Object.keys(error)) {
    if (!UNLOGGED_ERROR_FIELDS.has(key)) copy[key] = (error as unknown as Record<string, unknown>)[key];
  }
  return copy;
}

export function createLogger(service: string, level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    // The release on every line: in a rolling update two releases write to the same log stream.
    base: { service, version: PRODUCT_VERSION },
    formatters: {
      log: (object) => redactSecrets(object),
      bindings: (bindings) => redactSecrets(bindings),
    },
    // The correlation id, and while a span is active its trace and span ids (OpenTelemetry's log field names).
    mixin: () => {
      const correlationId = currentCorrelationId();
      const ids = activeTraceIds();
      return { ...(correlationId ? { correlationId } : {}), ...(ids ? { trace_id: ids.traceId, span_id: ids.spanId } : {}) };
    },
  };
  const logger = destination ? pino(options, destination) : pino(options);
  // pino formats only the root's bindings; children (inheriting this method) get theirs scrubbed here.
  type ChildFn = (this: unknown, bindings: pino.Bindings, childOptions?: pino.ChildLoggerOptions) => unknown;
  const child = Reflect.get(logger, 'child') as ChildFn;
  const redactedChild: ChildFn = function (this: unknown, bindings, childOptions) {
    return child.call(this, redactSecrets(bindings), childOptions);
  };
  Reflect.set(logger, 'child', redactedChild);
  return logger;
}

/** Nest's logger interface over pino: framework messages become structured lines too. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}

export type { Logger };

/** Nest injection token of the service's pino logger. */
export const LOGGER = Symbol('LOGGER');
