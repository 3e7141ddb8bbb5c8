/**
 * Whether a phrase reads as a due date, for quick add's highlights while typing. The server
 * parses with its full date grammar (many languages, recurrence); the API has no endpoint that
 * parses without creating the task, so the browser approximates the common English forms here.
 * A miss only means a part is not highlighted: the task itself is still parsed by the server.
 */
const WEEKDAY = '(?:mon|monday|tue|tues|tuesday|wed|weds|wednesday|thu|thur|thurs|thursday|fri|friday|sat|saturday|sun|sunday)';
const MONTH = '(?:jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|nov|november|dec|december)';
const ORDINAL = '\\d{1,2}(?:st|nd|rd|th)?';
const UNIT = '(?:min|mins|minutes?|hours?|hrs?|days?|weeks?|months?|years?)';
const DAY = [
  'today',
  'tod',
  'tomorrow',
  'tom',
  'tonight',
  'yesterday',
  '(?:the )?day after tomorrow',
  '(?:next|this) (?:week|month|year|weekend)',
  'weekend',
  `(?:next |this |on )?${WEEKDAY}`,
  `${MONTH} ${ORDINAL}(?:,? \\d{4})?`,
  `${ORDINAL} ${MONTH}(?: \\d{4})?`,
  '\\d{4}-\\d{2}-\\d{2}',
  '\\d{1,2}/\\d{1,2}(?:/\\d{2,4})?',
  `in (?:\\d+|a|an|one|two|three) ${UNIT}`,
].join('|');
const TIME = '(?:at )?(?:\\d{1,2}(?::\\d{2})? ?(?:am|pm)|\\d{1,2}:\\d{2}|noon|midnight)';
const RECURRING = '(?:every!?|ev!?|every other|after) \\S.*|daily|weekly|monthly|yearly|everyday';

const DATE = new RegExp(`^(?:(?:${DAY})(?: ${TIME})?|${TIME}(?: (?:${DAY}))?|${RECURRING})$`, 'i');

export function looksLikeDate(phrase: string): boolean {
  return DATE.test(phrase.trim().replace(/\s+/g, ' '));
}
