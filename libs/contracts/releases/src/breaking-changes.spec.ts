import { z } from 'zod';
import { breakingChanges, type BreakingRule } from './breaking-changes';
import { type ContractRecord, jsonSchemaOf } from './contract-snapshot';

/** Hand-made pairs of contracts: each breaking rule fires, each safe change passes. */
const request = (schema: z.ZodType, reply?: z.ZodType): ContractRecord[string] => ({ kind: 'request', request: jsonSchemaOf(schema), reply: reply ? jsonSchemaOf(reply) : null });
const event = (schema: z.ZodType): ContractRecord[string] => ({ kind: 'event', payload: jsonSchemaOf(schema) });

const rulesOf = (previous: ContractRecord, next: ContractRecord) => breakingChanges(previous, next).map(({ rule, where }) => ({ rule, where }));

const base = z.object({ userId: z.string(), note: z.string().optional() });
const digits = z.string().regex(/^[0-9]+$/);

describe('breaking contract changes', () => {
  describe('subjects', () => {
    it('a removed subject breaks the previous release', () => {
      expect(breakingChanges({ 'sync.user.status.v1': request(base) }, {})).toEqual([expect.objectContaining({ subject: 'sync.user.status.v1', rule: 'subject-removed' })]);
    });

    it('a removed subject whose .v2 appears in the same release still breaks it (its callers still send .v1)', () => {
      expect(rulesOf({ 'sync.user.status.v1': request(base) }, { 'sync.user.status.v2': request(base) })).toEqual([{ rule: 'subject-removed', where: undefined }]);
    });

    it('a subject may go once its .v2 stood beside it in the previous release', () => {
      expect(breakingChanges({ 'sync.user.status.v1': request(base), 'sync.user.status.v2': request(base) }, { 'sync.user.status.v2': request(base) })).toEqual([]);
    });

    it('a lower version does not stand in for a removed higher one', () => {
      const both = { 'sync.user.status.v1': request(base), 'sync.user.status.v2': request(base) };
      expect(rulesOf(both, { 'sync.user.status.v1': request(base) })).toEqual([{ rule: 'subject-removed', where: undefined }]);
    });

    it('a new subject and a new event are safe', () => {
      expect(breakingChanges({}, { 'sync.user.status.v1': request(base), 'sync.evt.thing-done.v1': event(base) })).toEqual([]);
    });

    it('a request that became an event breaks', () => {
      expect(rulesOf({ 'sync.thing.v1': request(base) }, { 'sync.thing.v1': event(base) })).toEqual([{ rule: 'kind-changed', where: undefined }]);
    });

    it('dropping a reply schema breaks (the check would go blind), adding one is safe', () => {
      expect(rulesOf({ 'a.b.v1': request(base, base) }, { 'a.b.v1': request(base) })).toEqual([{ rule: 'reply-schema-removed', where: undefined }]);
      expect(breakingChanges({ 'a.b.v1': request(base) }, { 'a.b.v1': request(base, base) })).toEqual([]);
    });

    it('an unchanged contract has no breaking change', () => {
      const contracts = { 'a.b.v1': request(base, base), 'a.evt.c.v1': event(base) };
      expect(breakingChanges(contracts, contracts)).toEqual([]);
    });
  });

  // Each case: the rule it must fire for a request, a reply and an event (null: safe there).
  const cases: Array<{ change: string; before: z.ZodType; after: z.ZodType; request: BreakingRule | null; reply: BreakingRule | null; event: BreakingRule | null; path: string }> = [
    { change: 'a field removed', before: base, after: z.object({ userId: z.string() }), request: 'field-removed', reply: 'field-removed', event: 'field-removed', path: '$.note' },
    { change: 'a field renamed', before: base, after: z.object({ userId: z.string(), comment: z.string().optional() }), request: 'field-removed', reply: 'field-removed', event: 'field-removed', path: '$.note' },
    { change: 'a new required field', before: base, after: base.extend({ projectId: z.string() }), request: 'field-made-required', reply: null, event: 'field-made-required', path: '$.projectId' },
    { change: 'an optional field made required', before: base, after: z.object({ userId: z.string(), note: z.string() }), request: 'field-made-required', reply: null, event: 'field-made-required', path: '$.note' },
    { change: 'a required field made optional', before: base, after: z.object({ userId: z.string().optional(), note: z.string().optional() }), request: null, reply: 'field-made-optional', event: 'field-made-optional', path: '$.userId' },
    { change: 'a changed type', before: base, after: z.object({ userId: z.number(), note: z.string().optional() }), request: 'type-changed', reply: 'type-changed', event: 'type-changed', path: '$.userId' },
    { change: 'a type widened (made nullable)', before: base, after: z.object({ userId: z.string().nullable(), note: z.string().optional() }), request: null, reply: 'type-changed', event: 'type-changed', path: '$.userId' },
    { change: 'a number narrowed to an integer', before: z.object({ n: z.number() }), after: z.object({ n: z.number().int() }), request: 'type-changed', reply: null, event: 'type-changed', path: '$.n' },
    { change: 'a nested field removed', before: z.object({ blob: z.object({ key: z.string(), size: z.number() }) }), after: z.object({ blob: z.object({ key: z.string() }) }), request: 'field-removed', reply: 'field-removed', event: 'field-removed', path: '$.blob.size' },
    { change: "a field of an array's elements changed type", before: z.object({ list: z.array(z.object({ id: z.string() })) }), after: z.object({ list: z.array(z.object({ id: z.number() })) }), request: 'type-changed', reply: 'type-changed', event: 'type-changed', path: '$.list[].id' },
    { change: 'an enum narrowed', before: z.object({ role: z.enum(['admin', 'member']) }), after: z.object({ role: z.enum(['admin']) }), request: 'enum-narrowed', reply: null, event: 'enum-narrowed', path: '$.role' },
    { change: 'an enum widened', before: z.object({ role: z.enum(['admin']) }), after: z.object({ role: z.enum(['admin', 'guest']) }), request: null, reply: 'enum-widened', event: 'enum-widened', path: '$.role' },
    { change: 'a union lost a variant', before: z.object({ id: z.union([digits, z.number()]) }), after: z.object({ id: digits }), request: 'variant-removed', reply: null, event: 'variant-removed', path: '$.id' },
    { change: 'a union gained a variant', before: z.object({ id: z.union([digits, z.number()]) }), after: z.object({ id: z.union([digits, z.number(), z.boolean()]) }), request: null, reply: 'variant-added', event: 'variant-added', path: '$.id' },
    { change: 'a union of plain types narrowed', before: z.object({ id: z.union([z.string(), z.number()]) }), after: z.object({ id: z.string() }), request: 'type-changed', reply: null, event: 'type-changed', path: '$.id' },
    {
      change: 'a discriminated variant lost a field',
      before: z.object({ command: z.discriminatedUnion('type', [z.object({ type: z.literal('a'), id: z.string() }), z.object({ type: z.literal('b') })]) }),
      after: z.object({ command: z.discriminatedUnion('type', [z.object({ type: z.literal('a') }), z.object({ type: z.literal('b') })]) }),
      request: 'field-removed',
      reply: 'field-removed',
      event: 'field-removed',
      path: '$.command<type="a">.id',
    },
    {
      change: 'a nullable discriminated union gained a variant',
      before: z.object({ query: z.discriminatedUnion('type', [z.object({ type: z.literal('a') }), z.object({ type: z.literal('b') })]).nullable() }),
      after: z.object({ query: z.discriminatedUnion('type', [z.object({ type: z.literal('a') }), z.object({ type: z.literal('b') }), z.object({ type: z.literal('c') })]).nullable() }),
      request: null,
      reply: 'variant-added',
      event: 'variant-added',
      path: '$.query',
    },
    {
      change: 'a nullable discriminated union lost a variant',
      before: z.object({ query: z.discriminatedUnion('type', [z.object({ type: z.literal('a') }), z.object({ type: z.literal('b') })]).nullable() }),
      after: z.object({ query: z.discriminatedUnion('type', [z.object({ type: z.literal('a') }), z.object({ type: z.literal('b') })]) }),
      request: 'variant-removed',
      reply: null,
      event: 'variant-removed',
      path: '$.query',
    },
    {
      change: 'a variant of a nullable discriminated union lost a field',
      before: z.object({ query: z.discriminatedUnion('type', [z.object({ type: z.literal('a'), id: z.string() }), z.object({ type: z.literal('b') })]).nullable() }),
      after: z.object({ query: z.discriminatedUnion('type', [z.object({ type: z.literal('a') }), z.object({ type: z.literal('b') })]).nullable() }),
      request: 'field-removed',
      reply: 'field-removed',
      event: 'field-removed',
      path: '$.query<type="a">.id',
    },
    { change: 'a field added to a closed object', before: z.strictObject({ a: z.string() }), after: z.strictObject({ a: z.string(), b: z.string().optional() }), request: 'field-added-to-closed-object', reply: null, event: 'field-added-to-closed-object', path: '$.b' },
    { change: 'a field of a nullable object removed', before: z.object({ o: z.object({ a: z.string(), b: z.string() }).nullable() }), after: z.object({ o: z.object({ a: z.string() }).nullable() }), request: 'field-removed', reply: 'field-removed', event: 'field-removed', path: '$.o.b' },
    // Safe changes.
    { change: 'a new optional field', before: base, after: base.extend({ projectId: z.string().optional() }), request: null, reply: null, event: null, path: '' },
    { change: 'a new field with a default (optional to the sender)', before: base, after: base.extend({ timezone: z.string().default('UTC') }), request: null, reply: null, event: null, path: '' },
    { change: 'a tighter or looser rule the schema does not type (a length)', before: base, after: z.object({ userId: z.string().max(20), note: z.string().optional() }), request: null, reply: null, event: null, path: '' },
    { change: 'a new optional field inside a nullable object', before: z.object({ o: z.object({ a: z.string() }).nullable() }), after: z.object({ o: z.object({ a: z.string(), b: z.string().optional() }).nullable() }), request: null, reply: null, event: null, path: '' },
  ];

  describe.each(cases)('$change', ({ before, after, request: requestRule, reply: replyRule, event: eventRule, path }) => {
    it(requestRule ? `breaks a request (${requestRule})` : 'is safe in a request', () => {
      const changes = rulesOf({ 'a.b.v1': request(before) }, { 'a.b.v1': request(after) });
      expect(changes).toEqual(requestRule ? [{ rule: requestRule, where: `request ${path}` }] : []);
    });

    it(replyRule ? `breaks a reply (${replyRule})` : 'is safe in a reply', () => {
      const changes = rulesOf({ 'a.b.v1': request(z.object({}), before) }, { 'a.b.v1': request(z.object({}), after) });
      expect(changes).toEqual(replyRule ? [{ rule: replyRule, where: `reply ${path}` }] : []);
    });

    it(eventRule ? `breaks an event (${eventRule})` : 'is safe in an event', () => {
      const changes = rulesOf({ 'a.evt.b.v1': event(before) }, { 'a.evt.b.v1': event(after) });
      expect(changes).toEqual(eventRule ? [{ rule: eventRule, where: `payload ${path}` }] : []);
    });
  });
});
