import type { RestV2Due } from '@doable/contracts-rest';
import type { ApiDue } from '@doable/contracts-sync';
import { DateTime } from 'luxon';

/**
 * The REST v2 due object: `date` is always the calendar day (in the task's zone when the time
 * is fixed to one), `datetime` is set only when there is a time: an RFC 3339 UTC instant for a
 * time fixed to a zone, the wall-clock time for a floating one.
 *
 * Written as one literal per case rather than spread from a shared base: a task list renders
 * hundreds of these, and the spread made this function a tenth of the rest service's CPU.
 */
export function restV2Due(due: ApiDue): RestV2Due {
  const lang = due.lang ?? 'en';
  if (due.date.length <= 10) return { string: due.string, is_recurring: due.is_recurring, lang, date: due.date, datetime: null, timezone: null };
  if (due.timezone) {
    const instant = DateTime.fromISO(due.date, { zone: 'utc' });
    const local = instant.setZone(due.timezone);
    return {
      string: due.string,
      is_recurring: due.is_recurring,
      lang,
      date: (local.isValid ? local : instant).toISODate() ?? due.date.slice(0, 10),
      datetime: instant.toISO({ suppressMilliseconds: true }) ?? due.date,
      timezone: due.timezone,
    };
  }
  return { string: due.string, is_recurring: due.is_recurring, lang, date: due.date.slice(0, 10), datetime: due.date, timezone: null };
}
