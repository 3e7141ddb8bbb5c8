import { DomainError } from '@doable/shared-errors';

/**
 * Every bad filter is the catalogue's INVALID_ARGUMENT_VALUE (error_code 20) with
 * `argument: 'filter'`: the public service shows no dedicated code for invalid filters
 * (public-api-facts §2.1), and clients already handle error 20 as a 400.
 */
export function invalidFilter(message: string, extra: Record<string, unknown> = {}): DomainError {
  return new DomainError('INVALID_ARGUMENT_VALUE', message, { argument: 'filter', ...extra });
}
