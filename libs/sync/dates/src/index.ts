// Due dates, deadlines and durations as Todoist reads and writes them: the due-string grammar
// and its language packs, recurrence, and the calendar range. Pure: no Nest, no database.

export type { DateContext, Due, DueInput } from './due.model';
export { parseDue } from './parse-due';
export { nextOccurrence } from './next-occurrence';
export { parseDeadline, type Deadline } from './deadline';
export { parseDuration, type Duration, type DurationUnit } from './duration';
export { SUPPORTED_LANGS } from './languages';
export { isInCalendar } from './calendar-range';
