import { DomainError } from '@doable/shared-errors';

export type DateArgument = 'due' | 'deadline' | 'duration' | 'lang';

/** Every bad date input is the same catalogue error (error_code 20); `argument` says which field. */
export function invalidDateArgument(argument: DateArgument, message: string, extra: Record<string, unknown> = {}): DomainError {
  return new DomainError('INVALID_ARGUMENT_VALUE', message, { argument, ...extra });
}
