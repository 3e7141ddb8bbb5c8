import { DomainError, todoistErrorBody } from '@doable/shared-errors';
import { type CommandStatus, firstRefusal, isRefusal } from './command-status';

const notFound = todoistErrorBody(new DomainError('ITEM_NOT_FOUND'));
const invalid = todoistErrorBody(new DomainError('INVALID_ARGUMENT_VALUE', undefined, { argument: 'x' }));

describe('command statuses', () => {
  it.each<[string, CommandStatus, boolean, unknown]>([
    ['ok', 'ok', false, undefined],
    ['a refusal of the whole command', invalid, true, invalid],
    ['a per-id map with every id ok', { '1': 'ok', '2': 'ok' }, false, undefined],
    ['a per-id map with a refused id', { '1': 'ok', '2': notFound, '3': invalid }, false, notFound],
  ])('tells %s apart and finds its first refusal', (_name, status, refusal, first) => {
    expect(isRefusal(status)).toBe(refusal);
    expect(firstRefusal(status)).toEqual(first);
  });
});
