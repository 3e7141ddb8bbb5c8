import { invalidDateArgument } from './core/due-errors';

export type DurationUnit = 'minute' | 'day';

export interface Duration {
  amount: number;
  unit: DurationUnit;
}

const UNITS: readonly string[] = ['minute', 'day'];

/** API v1 Task.duration is `{amount > 0, unit ∈ {minute, day}}` (client-constraints §2.1); clients validate it. */
export function parseDuration(input: { amount: number; unit: string } | null): Duration | null {
  if (input === null) return null;
  const { amount, unit } = input;
  if (typeof amount !== 'number' || !Number.isInteger(amount) || amount <= 0) {
    throw invalidDateArgument('duration', 'Duration amount must be a positive integer', { amount });
  }
  if (!UNITS.includes(unit)) {
    throw invalidDateArgument('duration', 'Duration unit must be "minute" or "day"', { unit, expected: UNITS });
  }
  return { amount, unit: unit as DurationUnit };
}
