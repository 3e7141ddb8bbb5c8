import { DomainError } from '@doable/shared-errors';

/**
 * Readers for REST arguments (JSON body fields and query parameters). Each throws a coded 400
 * naming the argument, so a wrong type never reaches the domain as something else.
 */

function invalid(argument: string, why: string): DomainError {
  return new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${argument} (${why})`, { argument });
}

export function missing(argument: string): DomainError {
  return new DomainError('ARGUMENT_MISSING', `Required argument is missing: ${argument}`, { argument });
}

export type Args = Readonly<Record<string, unknown>>;

/** A query parameter sent once; a repeated one is refused rather than guessed at. */
function single(args: Args, name: string): unknown {
  const value = args[name];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    if (value.length === 1) return value[0];
    throw invalid(name, 'sent more than once');
  }
  return value;
}

export function optionalString(args: Args, name: string, maxLength = 16_384): string | undefined {
  const value = single(args, name);
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(name, 'must be a string');
  if (value.length > maxLength) throw invalid(name, `at most ${maxLength} characters`);
  return value;
}

export function requiredString(args: Args, name: string, maxLength?: number): string {
  const value = optionalString(args, name, maxLength);
  if (value === undefined || value.trim() === '') throw missing(name);
  return value;
}

/** `null` passes through: REST uses it to clear a field. */
export function nullableString(args: Args, name: string): string | null | undefined {
  return args[name] === null ? null : optionalString(args, name);
}

/** An id as a string: JSON numbers (REST v1) and numeric strings alike. */
export function optionalId(args: Args, name: string): string | undefined {
  const value = single(args, name);
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && value.length > 0 && value.length <= 100) return value;
  throw invalid(name, 'must be an id');
}

/** Like optionalId, with REST v1's `0` and JSON null both meaning "none". */
export function nullableId(args: Args, name: string): string | null | undefined {
  const value = args[name];
  if (value === null || value === 0 || value === '0') return null;
  return optionalId(args, name);
}

export function requiredId(args: Args, name: string): string {
  const value = optionalId(args, name);
  if (value === undefined) throw missing(name);
  return value;
}

export function optionalInt(args: Args, name: string, range: { min?: number; max?: number } = {}): number | undefined {
  const raw = single(args, name);
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' && /^-?[0-9]{1,15}$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw invalid(name, 'must be an integer');
  if (range.min !== undefined && value < range.min) throw invalid(name, `at least ${range.min}`);
  if (range.max !== undefined && value > range.max) throw invalid(name, `at most ${range.max}`);
  return value;
}

export function optionalBoolean(args: Args, name: string): boolean | undefined {
  const value = single(args, name);
  if (value === undefined) return undefined;
  if (value === true || value === 'true' || value === '1' || value === 1) return true;
  if (value === false || value === 'false' || value === '0' || value === 0) return false;
  throw invalid(name, 'must be a boolean');
}

export function optionalStringArray(args: Args, name: string, maxItems = 500): string[] | undefined {
  const value = args[name];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw invalid(name, 'must be a list of strings');
  if (value.length > maxItems) throw invalid(name, `at most ${maxItems} items`);
  return value;
}

/**
 * A list of ids from a query string, in the three encodings clients use: `ids=1,2` (most SDKs),
 * `ids[]=1&ids[]=2` (axios defaults) and `ids=["1","2"]` (sdk 11 JSON-encodes arrays).
 */
export function idList(query: Args, name: string, maxItems = 200): string[] | undefined {
  const raw = query[name] ?? query[`${name}[]`];
  if (raw === undefined) return undefined;
  const values: unknown[] = Array.isArray(raw) ? (raw as unknown[]) : [raw];
  const parts = values.flatMap((value) => (typeof value === 'string' ? splitList(value, name) : [value]));
  if (parts.length > maxItems) throw invalid(name, `at most ${maxItems} ids`);
  return parts.map((part) => {
    if (typeof part === 'number' && Number.isSafeInteger(part)) return String(part);
    if (typeof part === 'string' && /^[0-9A-Za-z_-]{1,100}$/.test(part)) return part;
    throw invalid(name, 'must be a list of ids');
  });
}

function splitList(value: string, name: string): unknown[] {
  const trimmed = value.trim();
  if (trimmed === '') return [];
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed as unknown[];
    } catch {
      // falls through to the error below
    }
    throw invalid(name, 'is not a JSON list');
  }
  return trimmed.split(',').map((part) => part.trim());
}

/** The body's fields among `names`, as sent: for arguments the sync command's own schema validates. */
export function fieldsSent(body: Args, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((name) => body[name] !== undefined).map((name) => [name, body[name]]));
}
