/**
 * The editor's Repeat choice, over the due string the server parses (natural language, its
 * English rules: `every day`, `every weekday`, `every week at 9am`...). The due text stays the one
 * source of truth: the choice is read from it and writes it, so the person sees what is sent.
 */
export type Recurrence = 'none' | 'day' | 'weekday' | 'week' | 'month' | 'year' | 'custom';

export const RECURRENCE_CHOICES: ReadonlyArray<{ value: Exclude<Recurrence, 'custom'>; label: string }> = [
  { value: 'none', label: 'None' },
  { value: 'day', label: 'Every day' },
  { value: 'weekday', label: 'Every weekday' },
  { value: 'week', label: 'Every week' },
  { value: 'month', label: 'Every month' },
  { value: 'year', label: 'Every year' },
];

/** A time of day as typed: `9am`, `9:30 pm`, `14:00`, after an optional `at` (the parser's own forms). */
const TIME = /(?:^|\s)(?:at\s+|@\s*)?(\d{1,2}(?::\d{2})?\s*(?:a\.m\.|p\.m\.|am|pm)|\d{1,2}:\d{2})(?=\s|$)/i;

/** The words the server's English rules take as the start of a recurring due. */
const RECURRING_START = /^(?:every!?|ev!?|each|after|daily|weekly|monthly|yearly|annually)(?:\s|$)/i;

/** Each simple choice, as the parser accepts it (with a time after it, or nothing). */
const SIMPLE: ReadonlyArray<[Exclude<Recurrence, 'none' | 'custom'>, RegExp]> = [
  ['day', /^(?:(?:every|ev|each)\s+day|daily)$/i],
  ['weekday', /^(?:every|ev|each)\s+(?:weekday|workday)s?$/i],
  ['week', /^(?:(?:every|ev|each)\s+week|weekly)$/i],
  ['month', /^(?:(?:every|ev|each)\s+month|monthly)$/i],
  ['year', /^(?:(?:every|ev|each)\s+year|yearly|annually)$/i],
];

/** The time of day in a due string, as typed (`9am`, `14:30`), or null. */
export function typedTime(due: string): string | null {
  return TIME.exec(due.trim())?.[1] ?? null;
}

/**
 * Which Repeat choice a due string is. `knownRecurring` is the server's `is_recurring` for the
 * string it holds: a recurrence worded otherwise (`every monday`, `every 3 days`) is `custom`.
 */
export function recurrenceOf(due: string, knownRecurring = false): Recurrence {
  const text = due.trim().replace(/\s+/g, ' ');
  if (!text) return 'none';
  const time = TIME.exec(text);
  const rest = time ? (text.slice(0, time.index) + text.slice(time.index + time[0].length)).trim() : text;
  for (const [choice, pattern] of SIMPLE) if (pattern.test(rest)) return choice;
  return knownRecurring || RECURRING_START.test(text) ? 'custom' : 'none';
}

/**
 * The due string for a Repeat choice, keeping the typed time. `None` on a recurring string keeps
 * the occurrence it is at (`currentDate`, the server's `YYYY-MM-DD[THH:MM:SS]`), else no due.
 * `custom` leaves the string as typed.
 */
export function composeDue(due: string, choice: Recurrence, currentDate?: string): string {
  const time = typedTime(due);
  const at = time ? ` at ${time}` : '';
  switch (choice) {
    case 'custom':
      return due;
    case 'none': {
      if (recurrenceOf(due) === 'none') return due;
      const day = currentDate?.slice(0, 10);
      return day ? `${day}${at}` : '';
    }
    case 'day':
    case 'weekday':
    case 'week':
    case 'month':
    case 'year':
      return `every ${choice}${at}`;
  }
}
