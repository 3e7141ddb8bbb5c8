import { DomainError } from '@doable/shared-errors';
import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { nextOccurrence, parseDeadline, parseDuration, parseDue } from '@doable/sync-dates';
import type { Item, StoredDue } from './item.model';

export interface UserClock {
  readonly timezone: string;
  readonly startDay: number;
  readonly nextWeek: number;
}

/** The due object clients send; anything else is refused before the parser sees it. */
const dueInput = z.object({
  string: z.string().max(512).optional(),
  date: z.string().max(64).optional(),
  datetime: z.string().max(64).optional(),
  timezone: z.string().max(64).nullish(),
  lang: z.string().max(8).optional(),
  is_recurring: z.boolean().optional(),
});
const deadlineInput = z.object({ date: z.string().max(64), lang: z.string().max(8).optional() }).nullable();
const durationInput = z.object({ amount: z.number(), unit: z.string().max(16) }).nullable();

function checked<T>(schema: z.ZodType<T>, input: unknown, argument: string): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${argument}`, { argument, explanation: parsed.error.issues[0]?.message });
  return parsed.data;
}

/** Where task commands meet the dates module: due, deadline and duration arguments, and recurrence. */
@Injectable()
export class ItemDates {
  /** `undefined` leaves the due as it is; `null` (or "no date") clears it. */
  due(input: unknown, user: UserClock, now = new Date()): StoredDue | null | undefined {
    if (input === undefined) return undefined;
    if (input === null) return null;
    return parseDue(checked(dueInput, input, 'due'), { now, timezone: user.timezone, startDay: user.startDay, nextWeekDay: user.nextWeek });
  }

  deadline(input: unknown): Item['deadline'] | undefined {
    if (input === undefined) return undefined;
    return parseDeadline(checked(deadlineInput, input, 'deadline'));
  }

  duration(input: unknown): Item['duration'] | undefined {
    if (input === undefined) return undefined;
    return parseDuration(checked(durationInput, input, 'duration'));
  }

  /** The due after completing one occurrence; null when the series has ended. */
  next(due: StoredDue, completedAt: Date, timezone: string): StoredDue | null {
    return nextOccurrence(due, { completedAt, timezone });
  }
}
