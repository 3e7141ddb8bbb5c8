/** What a filter is evaluated against: whose tasks, and the clock and language dates are read in. */
export interface FilterContext {
  readonly userId: string;
  /** The user's IANA zone: "today" and date-only dues are days on this wall clock. */
  readonly timezone: string;
  readonly now: Date;
  /** Language of date phrases ("due before: nächsten Montag"); the keywords are English. */
  readonly lang: string;
  /** User settings start_day and next_week (1 = Monday .. 7 = Sunday), for "next week". */
  readonly startDay?: number;
  readonly nextWeekDay?: number;
}
