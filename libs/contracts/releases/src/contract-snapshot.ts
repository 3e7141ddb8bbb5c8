import { z } from 'zod';
import { type AnySubject, contractCatalogue } from './contract-catalogue';

/** A JSON Schema (draft 2020-12) as zod writes it. */
export type JsonSchema = { readonly [keyword: string]: unknown };

export type SubjectRecord =
  | { readonly kind: 'request'; readonly request: JsonSchema; readonly reply: JsonSchema | null }
  | { readonly kind: 'event'; readonly payload: JsonSchema };

/**
 * What one release promises on NATS: every subject with its request and reply schemas and every
 * event with its payload schema. `reply: null`: the reply is a TypeScript type only; the record
 * then says no more than that the subject exists.
 */
export type ContractRecord = Readonly<Record<string, SubjectRecord>>;

/**
 * A message's schema as its receiver parses it (`io: 'input'`: a field with a default is
 * optional to the sender). Refinements and transforms have no JSON Schema form and are left
 * out (`unrepresentable: 'any'`): the snapshot records shapes, not every rule.
 */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

function recordOf(subject: AnySubject): SubjectRecord {
  if (subject.kind === 'event') return { kind: 'event', payload: jsonSchemaOf(subject.payload) };
  return { kind: 'request', request: jsonSchemaOf(subject.request), reply: subject.replySchema ? jsonSchemaOf(subject.replySchema) : null };
}

/** HEAD's contracts, subjects sorted by name (the committed file diffs line by line). */
export function currentContracts(catalogue: ReadonlyMap<string, AnySubject> = contractCatalogue()): ContractRecord {
  return Object.fromEntries([...catalogue.keys()].sort().map((name) => [name, recordOf(catalogue.get(name)!)]));
}
