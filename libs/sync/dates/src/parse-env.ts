import { type DateTime } from 'luxon';
import { type WallDate } from './core/wall-clock';

/** What relative words are measured from: the user's wall clock and week settings. */
export interface ParseEnv {
  today: WallDate;
  now: DateTime;
  /** 1 = Monday .. 7 = Sunday. */
  startDay: number;
  nextWeekDay: number;
}
