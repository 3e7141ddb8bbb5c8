import { DomainError } from '@doable/shared-errors';
import { colorNameOf } from '@doable/contracts-sync';

/** v8 and REST v1 send colours as integers 30..49 (public-api-facts §3); the domain stores names. */
export function colorName(color: string | number): string {
  if (typeof color === 'string') return color;
  const name = colorNameOf(color);
  if (!name) throw new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: color', { argument: 'color' });
  return name;
}
