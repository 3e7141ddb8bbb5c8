import type { ContractRecord, JsonSchema, SubjectRecord } from './contract-snapshot';

/**
 * Whether a contract change lets the previous release keep running beside this one on one NATS
 * (a rolling update is a mixed-version cluster for minutes). Modelled on Buf's breaking-change
 * rules for protobuf, applied to the JSON Schemas of contract-snapshot.ts.
 *
 * Who reads a message decides which way a change may go:
 * - a request is parsed by its handler, which may be of either release: the new schema must
 *   accept every request the old one did (it may widen, never narrow);
 * - a reply is read by a caller of the previous release: the new reply must be one the old
 *   caller understands (it may narrow or add fields, never widen or drop);
 * - an event stays in the stream and is read by consumers of both releases, and both validate
 *   it: only new optional fields are safe. Anything else is a new `.vN` event beside the old.
 */
export type MessagePart = 'request' | 'reply' | 'payload';

export type BreakingRule =
  | 'subject-removed'
  | 'kind-changed'
  | 'reply-schema-removed'
  | 'field-removed'
  | 'field-made-required'
  | 'field-made-optional'
  | 'field-added-to-closed-object'
  | 'type-changed'
  | 'enum-narrowed'
  | 'enum-widened'
  | 'variant-removed'
  | 'variant-added';

export interface BreakingChange {
  readonly subject: string;
  readonly rule: BreakingRule;
  /** The message and the JSON path in it (`reply $.blob.size`); absent for subject-level rules. */
  readonly where?: string;
  readonly detail: string;
}

interface Direction {
  /** Every value the old schema allowed must still be allowed (requests, events). */
  readonly noNarrowing: boolean;
  /** No value the old schema refused may now be allowed (replies, events). */
  readonly noWidening: boolean;
}

const DIRECTIONS: Readonly<Record<MessagePart, Direction>> = {
  request: { noNarrowing: true, noWidening: false },
  reply: { noNarrowing: false, noWidening: true },
  payload: { noNarrowing: true, noWidening: true },
};

const VERSIONED = /^(.*)\.v([0-9]+)$/;

/**
 * A subject may go only once a higher version of it stood beside it in the previous release:
 * that release's callers could move to it, so none of them needs the old one any more.
 */
function replacedBeforehand(name: string, previous: ContractRecord, next: ContractRecord): string | undefined {
  const [, base, version] = VERSIONED.exec(name) ?? [];
  if (base === undefined) return undefined;
  return Object.keys(next).find((other) => {
    const [, otherBase, otherVersion] = VERSIONED.exec(other) ?? [];
    return otherBase === base && Number(otherVersion) > Number(version) && other in previous;
  });
}

/** Every change from `previous` to `next` that would break the previous release. */
export function breakingChanges(previous: ContractRecord, next: ContractRecord): BreakingChange[] {
  const changes: BreakingChange[] = [];
  for (const [name, before] of Object.entries(previous)) {
    const after = next[name];
    if (!after) {
      if (replacedBeforehand(name, previous, next)) continue;
      changes.push({
        subject: name,
        rule: 'subject-removed',
        detail: `${name} is gone; add a higher .vN beside it, and remove it no earlier than the release after`,
      });
      continue;
    }
    changes.push(...subjectChanges(name, before, after));
  }
  return changes;
}

function subjectChanges(name: string, before: SubjectRecord, after: SubjectRecord): BreakingChange[] {
  if (before.kind !== after.kind) return [{ subject: name, rule: 'kind-changed', detail: `was a ${before.kind}, is a ${after.kind}` }];
  if (before.kind === 'event' && after.kind === 'event') return schemaChanges(name, 'payload', before.payload, after.payload);
  if (before.kind !== 'request' || after.kind !== 'request') return [];
  const changes = schemaChanges(name, 'request', before.request, after.request);
  if (before.reply && !after.reply) changes.push({ subject: name, rule: 'reply-schema-removed', detail: 'the reply schema was dropped: the check could no longer see its changes' });
  if (before.reply && after.reply) changes.push(...schemaChanges(name, 'reply', before.reply, after.reply));
  return changes;
}

function schemaChanges(subject: string, part: MessagePart, before: JsonSchema, after: JsonSchema): BreakingChange[] {
  const changes: BreakingChange[] = [];
  compare(before, after, '$', DIRECTIONS[part], (rule, path, detail) => changes.push({ subject, rule, where: `${part} ${path}`, detail }));
  return changes;
}

type Report = (rule: BreakingRule, path: string, detail: string) => void;

/** JSON types a schema allows; `undefined`: any value (`{}`, `z.unknown()`). */
function typesOf(schema: JsonSchema): Set<string> | undefined {
  const { type } = schema;
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type as string[]);
  return undefined;
}

/** Whether `types` allows every value of type `type` (an integer is a number). */
function covers(types: Set<string> | undefined, type: string): boolean {
  return types === undefined || types.has(type) || (type === 'integer' && types.has('number'));
}

function enumOf(schema: JsonSchema): unknown[] | undefined {
  if (Array.isArray(schema['enum'])) return schema['enum'] as unknown[];
  if ('const' in schema) return [schema['const']];
  return undefined;
}

/**
 * A union's variants, a bare union among them spread in: a nullable discriminated union is
 * written `anyOf: [{oneOf: [...]}, {type: 'null'}]`, which is one union of all of them (so a
 * variant added to the inner one is matched as a variant, not as the whole inner union changed).
 */
function variantsOf(schema: JsonSchema): JsonSchema[] | undefined {
  const variants = schema['anyOf'] ?? schema['oneOf'];
  if (!Array.isArray(variants)) return undefined;
  return (variants as JsonSchema[]).flatMap((variant) => (isBareUnion(variant) ? (variantsOf(variant) ?? [variant]) : [variant]));
}

/** A schema that is a union and nothing else (no type or fields of its own beside its variants). */
function isBareUnion(schema: JsonSchema): boolean {
  return Object.keys(schema).every((keyword) => keyword === 'anyOf' || keyword === 'oneOf' || keyword === 'description') && variantsOf(schema) !== undefined;
}

function objectPart(schema: JsonSchema, keyword: 'properties'): Record<string, JsonSchema> | undefined {
  const value = schema[keyword];
  return typeof value === 'object' && value !== null ? (value as Record<string, JsonSchema>) : undefined;
}

function compare(before: JsonSchema, after: JsonSchema, path: string, direction: Direction, report: Report): void {
  const beforeVariants = variantsOf(before);
  const afterVariants = variantsOf(after);
  if (beforeVariants || afterVariants) {
    compareVariants(beforeVariants ?? [before], afterVariants ?? [after], path, direction, report);
    return;
  }
  compareTypes(before, after, path, direction, report);
  compareEnums(before, after, path, direction, report);
  compareProperties(before, after, path, direction, report);
  const items = [before['items'], after['items']];
  if (items.every((item) => typeof item === 'object' && item !== null)) compare(items[0] as JsonSchema, items[1] as JsonSchema, `${path}[]`, direction, report);
  const values = [before['additionalProperties'], after['additionalProperties']];
  if (values.every((value) => typeof value === 'object' && value !== null)) compare(values[0] as JsonSchema, values[1] as JsonSchema, `${path}{}`, direction, report);
}

function compareTypes(before: JsonSchema, after: JsonSchema, path: string, direction: Direction, report: Report): void {
  const old = typesOf(before);
  const now = typesOf(after);
  const narrowed = old === undefined ? now !== undefined : [...old].some((type) => !covers(now, type));
  const widened = now === undefined ? old !== undefined : [...now].some((type) => !covers(old, type));
  const describe = (types: Set<string> | undefined) => (types ? [...types].join(' | ') : 'any');
  if ((narrowed && direction.noNarrowing) || (widened && direction.noWidening)) {
    report('type-changed', path, `${describe(old)} became ${describe(now)}`);
  }
}

function compareEnums(before: JsonSchema, after: JsonSchema, path: string, direction: Direction, report: Report): void {
  const old = enumOf(before);
  const now = enumOf(after);
  const same = (list: unknown[] | undefined, value: unknown) => list === undefined || list.some((item) => JSON.stringify(item) === JSON.stringify(value));
  if (direction.noNarrowing && old !== undefined) {
    const lost = old.filter((value) => !same(now, value));
    if (lost.length > 0) report('enum-narrowed', path, `no longer allows ${JSON.stringify(lost)}`);
  }
  if (direction.noWidening && now !== undefined) {
    const gained = now.filter((value) => !same(old, value));
    if (old === undefined) report('enum-widened', path, `now limited to ${JSON.stringify(now)}, which readers of the previous release may not expect`);
    else if (gained.length > 0) report('enum-widened', path, `now allows ${JSON.stringify(gained)}, unknown to readers of the previous release`);
  }
}

function compareProperties(before: JsonSchema, after: JsonSchema, path: string, direction: Direction, report: Report): void {
  const old = objectPart(before, 'properties');
  const now = objectPart(after, 'properties');
  if (!old && !now) return;
  const oldRequired = new Set((before['required'] as string[] | undefined) ?? []);
  const nowRequired = new Set((after['required'] as string[] | undefined) ?? []);
  for (const [field, schema] of Object.entries(old ?? {})) {
    const replacement = now?.[field];
    if (!replacement) {
      report('field-removed', `${path}.${field}`, `${field} is gone`);
      continue;
    }
    // A sender of the previous release may leave out a field it did not have to send.
    if (!oldRequired.has(field) && nowRequired.has(field) && direction.noNarrowing) report('field-made-required', `${path}.${field}`, `${field} was optional`);
    // A reader of the previous release counts on a field it was always sent.
    if (oldRequired.has(field) && !nowRequired.has(field) && direction.noWidening) report('field-made-optional', `${path}.${field}`, `${field} was always there`);
    compare(schema, replacement, `${path}.${field}`, direction, report);
  }
  const closed = before['additionalProperties'] === false;
  for (const field of Object.keys(now ?? {})) {
    if (old?.[field]) continue;
    if (nowRequired.has(field) && direction.noNarrowing) report('field-made-required', `${path}.${field}`, `${field} is new and required: a sender of the previous release leaves it out`);
    // A handler of the previous release that refuses unknown keys refuses a sender who fills it.
    else if (closed && direction.noNarrowing) report('field-added-to-closed-object', `${path}.${field}`, `${field} is new on an object that refused unknown keys`);
  }
}

/**
 * Union variants are matched by a discriminator (a property with a `const` in every variant)
 * when there is one, else by equal schemas: a changed variant without a discriminator counts as
 * one removed and one added, which errs on the side of calling a change breaking.
 */
function compareVariants(before: JsonSchema[], after: JsonSchema[], path: string, direction: Direction, report: Report): void {
  const key = discriminatorOf([...before, ...after]);
  const keyOf = (variant: JsonSchema) => {
    const discriminator = key ? objectPart(variant, 'properties')?.[key] : undefined;
    return discriminator && 'const' in discriminator ? JSON.stringify(discriminator['const']) : JSON.stringify(variant);
  };
  const unmatched = new Set(after);
  const pairs: [JsonSchema, JsonSchema][] = [];
  const lost: JsonSchema[] = [];
  for (const variant of before) {
    const match = [...unmatched].find((candidate) => keyOf(candidate) === keyOf(variant));
    if (match) {
      unmatched.delete(match);
      pairs.push([variant, match]);
    } else lost.push(variant);
  }
  // Without a discriminator, a variant that changed inside (the object of a nullable object)
  // is still the one variant of its JSON type on each side: compare it field by field.
  for (const variant of key ? [] : [...lost]) {
    const sameType = [...unmatched].filter((candidate) => JSON.stringify(candidate['type']) === JSON.stringify(variant['type']));
    const sameTypeBefore = before.filter((candidate) => JSON.stringify(candidate['type']) === JSON.stringify(variant['type']));
    if (variant['type'] === undefined || sameType.length !== 1 || sameTypeBefore.length !== 1) continue;
    unmatched.delete(sameType[0]);
    lost.splice(lost.indexOf(variant), 1);
    pairs.push([variant, sameType[0]]);
  }
  for (const [old, now] of pairs) compare(old, now, key ? `${path}<${key}=${keyOf(old)}>` : path, direction, report);
  const label = (variant: JsonSchema) => (key ? `${key}=${keyOf(variant)}` : keyOf(variant));
  if (direction.noNarrowing) for (const variant of lost) report('variant-removed', path, `a variant is gone or changed: ${label(variant)}`);
  if (direction.noWidening) for (const variant of unmatched) report('variant-added', path, `a variant is new or changed: ${label(variant)}`);
}

/**
 * The property every object variant holds a `const` in, when there are two or more of them;
 * variants that are no objects (the `null` of a nullable union) are matched by their schema.
 */
function discriminatorOf(variants: JsonSchema[]): string | undefined {
  const objects = variants.filter((variant) => objectPart(variant, 'properties') !== undefined);
  const first = objectPart(objects[0] ?? {}, 'properties');
  if (!first || objects.length < 2) return undefined;
  return Object.keys(first).find((field) => objects.every((variant) => 'const' in (objectPart(variant, 'properties')?.[field] ?? {})));
}
