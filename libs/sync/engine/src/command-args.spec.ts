import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import { parseArgs } from './command-args';

const schema = z.object({
  name: z.string().trim().min(1),
  child_order: z.number().int().min(0).optional(),
  parent_id: z.string().nullable().optional(),
  due: z.object({ string: z.string() }).optional(),
});

function argsError<T>(target: z.ZodType<T>, args: Record<string, unknown>): DomainError {
  try {
    parseArgs(target, args);
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected parseArgs to throw');
}

describe('parseArgs', () => {
  it('returns the parsed args, with the schema applied', () => {
    expect(parseArgs(schema, { name: '  Errands ', child_order: 2, parent_id: null })).toEqual({ name: 'Errands', child_order: 2, parent_id: null });
  });

  it('drops keys the schema does not know', () => {
    expect(parseArgs(schema, { name: 'Errands', unknown: true })).toEqual({ name: 'Errands' });
  });

  it('answers a missing required argument with ARGUMENT_MISSING naming it', () => {
    const err = argsError(schema, { child_order: 1 });
    expect(err.code).toBe('ARGUMENT_MISSING');
    expect(err.extra).toEqual({ argument: 'name' });
    expect(err.message).toBe('Required argument is missing: name');
  });

  it('treats an argument explicitly set to undefined as missing', () => {
    const err = argsError(schema, { name: undefined });
    expect(err.code).toBe('ARGUMENT_MISSING');
    expect(err.extra).toEqual({ argument: 'name' });
  });

  it.each([
    ['an empty name', { name: '   ' }, 'name'],
    ['a numeric name', { name: 5 }, 'name'],
    ['a null name', { name: null }, 'name'],
    ['a negative child_order', { name: 'x', child_order: -1 }, 'child_order'],
    ['a fractional child_order', { name: 'x', child_order: 1.5 }, 'child_order'],
    ['a numeric parent_id', { name: 'x', parent_id: 7 }, 'parent_id'],
    ['a malformed nested due', { name: 'x', due: { string: 5 } }, 'due'],
  ])('answers %s with INVALID_ARGUMENT_VALUE naming the argument', (_label, args, argument) => {
    const err = argsError(schema, args);
    expect(err.code).toBe('INVALID_ARGUMENT_VALUE');
    expect(err.extra['argument']).toBe(argument);
    expect(typeof err.extra['explanation']).toBe('string');
    expect(err.message).toBe(`Invalid argument value: ${argument}`);
  });

  it('names the top-level argument for a missing nested field, as an invalid value', () => {
    const err = argsError(schema, { name: 'x', due: {} });
    expect(err.code).toBe('INVALID_ARGUMENT_VALUE');
    expect(err.extra['argument']).toBe('due');
  });

  it('reports an issue on the args as a whole without an argument name', () => {
    const refined = z.object({ a: z.number().optional(), b: z.number().optional() }).refine((args) => args.a !== undefined || args.b !== undefined, 'a or b is required');
    const err = argsError(refined, {});
    expect(err.code).toBe('INVALID_ARGUMENT_VALUE');
    expect(err.extra).toEqual({ argument: '', explanation: 'a or b is required' });
    expect(err.message).toBe('Invalid argument value: args');
  });
});
