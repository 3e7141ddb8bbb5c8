import { type EdgeRequest, isObjectId } from '@doable/contracts-common';
import { FirstGenerationRefusal } from './first-generation-refusal';

/**
 * A first-generation call's parameters: the query string and the form together (its clients
 * sent either, over GET or POST); a form field wins over the query parameter of the same name.
 * Lists (`ids`, `queries`, `items_to_sync`) arrive as JSON text.
 */
export class FirstGenerationParams {
  private readonly values: Readonly<Record<string, unknown>>;

  constructor(request: Pick<EdgeRequest, 'query' | 'body'>) {
    const form = request.body !== null && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
    this.values = { ...request.query, ...form };
  }

  /** One value as text: the first of a repeated parameter; undefined when absent or empty. */
  text(name: string): string | undefined {
    const raw = this.values[name];
    const value: unknown = Array.isArray(raw) ? (raw as unknown[])[0] : raw;
    if (typeof value === 'number') return String(value);
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  /** Whether the parameter was sent at all (an empty value included: `date_string=` removes a due). */
  has(name: string): boolean {
    return this.values[name] !== undefined;
  }

  /** A value as sent (text, or a JSON body's own types). */
  raw(name: string): unknown {
    return this.values[name];
  }

  /** An object id; `refusal` when it is absent or no id (nothing to find). */
  id(name: string, refusal: FirstGenerationRefusal): string {
    const value = this.text(name);
    if (value === undefined || !isObjectId(value)) throw refusal;
    return value;
  }

  /** An optional object id: undefined when absent, `refusal` when present but no id. */
  optionalId(name: string, refusal: FirstGenerationRefusal): string | undefined {
    return this.text(name) === undefined ? undefined : this.id(name, refusal);
  }

  /** An integer within bounds, or undefined when absent; ERROR_INVALID_ARGUMENT otherwise. */
  integer(name: string, min: number, max: number): number | undefined {
    const value = this.text(name);
    if (value === undefined) return undefined;
    if (!/^-?\d{1,9}$/.test(value) || Number(value) < min || Number(value) > max) throw FirstGenerationRefusal.invalid(name);
    return Number(value);
  }

  /** A JSON list (`[1,2]`, `["p1"]`); ERROR_ARGUMENT_MISSING when absent, ERROR_INVALID_ARGUMENT when not a list. */
  list(name: string): unknown[] {
    const raw = this.values[name];
    if (Array.isArray(raw)) return raw;
    const text = this.text(name);
    if (text === undefined) throw FirstGenerationRefusal.missing(name);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw FirstGenerationRefusal.invalid(name);
    }
    if (!Array.isArray(parsed)) throw FirstGenerationRefusal.invalid(name);
    return parsed;
  }

  /** A JSON list of ids (numbers or digit text), as id text; ERROR_INVALID_ARGUMENT for anything else. */
  idList(name: string, max = 100): string[] {
    const list = this.list(name);
    if (list.length > max) throw FirstGenerationRefusal.invalid(name);
    return list.map((entry) => {
      const id = typeof entry === 'number' && Number.isSafeInteger(entry) ? String(entry) : entry;
      if (typeof id !== 'string' || !isObjectId(id)) throw FirstGenerationRefusal.invalid(name);
      return id;
    });
  }
}
