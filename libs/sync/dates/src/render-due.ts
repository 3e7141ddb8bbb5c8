import { type Due } from './due.model';
import { dueToWall } from './due-date-format';

/**
 * The string for a due sent only as a date: English, and in a form parseDue reads back to the same
 * date ("Dec 1 2026", "Dec 1 2026 17:30"), so a later re-parse cannot drift.
 */
export function renderDue(fields: Pick<Due, 'date' | 'timezone'>): string {
  const wall = dueToWall(fields);
  const day = wall.day.toFormat('LLL d yyyy', { locale: 'en' });
  if (!wall.time) return day;
  const hh = String(wall.time.hour).padStart(2, '0');
  const mm = String(wall.time.minute).padStart(2, '0');
  return `${day} ${hh}:${mm}`;
}
