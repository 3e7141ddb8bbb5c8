import { DomainError, todoistErrorBody } from '@doable/shared-errors';
import { refusalOfError, refusalOfStatus } from './first-generation-refusal';

const of = (code: ConstructorParameters<typeof DomainError>[0], extra: Record<string, unknown> = {}) => refusalOfStatus(todoistErrorBody(new DomainError(code, 'message', extra)));

describe('first-generation refusals', () => {
  it('maps the domain\'s refusals onto the help text\'s strings', () => {
    expect(of('PROJECT_NOT_FOUND')).toMatchObject({ status: 400, tag: 'ERROR_PROJECT_NOT_FOUND' });
    expect(of('ITEM_NOT_FOUND')).toMatchObject({ status: 400, tag: 'ERROR_ITEM_NOT_FOUND' });
    expect(of('ITEM_CONTENT_EMPTY')).toMatchObject({ status: 400, tag: 'ERROR_NAME_IS_EMPTY' });
    expect(of('INVALID_ARGUMENT_VALUE', { argument: 'due' })).toMatchObject({ status: 400, tag: 'ERROR_WRONG_DATE_SYNTAX' });
    expect(of('INVALID_ARGUMENT_VALUE', { argument: 'project_id' })).toMatchObject({ status: 400, tag: 'ERROR_PROJECT_NOT_FOUND' });
    expect(of('FORBIDDEN')).toMatchObject({ status: 403, tag: 'ERROR_FORBIDDEN' });
    expect(of('ARGUMENT_MISSING', { argument: 'ids' })).toMatchObject({ status: 400, tag: 'ERROR_ARGUMENT_MISSING' });
    expect(of('INVALID_ARGUMENT_VALUE', { argument: 'priority' })).toMatchObject({ status: 400, tag: 'ERROR_INVALID_ARGUMENT' });
    expect(of('INTERNAL')).toMatchObject({ status: 500, tag: 'UNKNOWN_ERROR' });
  });

  it('maps a read\'s argument errors and leaves the rest to the transport', () => {
    expect(refusalOfError(new DomainError('INVALID_ARGUMENT_VALUE', 'bad filter', { argument: 'filter' }))).toMatchObject({ status: 400, tag: 'ERROR_WRONG_DATE_SYNTAX' });
    expect(refusalOfError(new DomainError('INVALID_ARGUMENT_VALUE', 'bad', { argument: 'lang' }))).toMatchObject({ status: 400, tag: 'ERROR_INVALID_ARGUMENT' });
    expect(refusalOfError(new DomainError('AUTH_REQUIRED'))).toBeUndefined();
  });
});
