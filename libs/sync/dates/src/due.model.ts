/** What clients send as `due` (sync item_add/item_update, REST due_string/due_date/due_datetime/due_lang). */
export interface DueInput {
  string?: string;
  date?: string;
  datetime?: string;
  timezone?: string | null;
  lang?: string;
  is_recurring?: boolean;
}

/** The canonical due object the server stores and returns (sync-interface §2, public-api-facts §5). */
export interface Due {
  /** 'YYYY-MM-DD' (full day) | 'YYYY-MM-DDTHH:MM:SS' (floating time) | 'YYYY-MM-DDTHH:MM:SSZ' (fixed: UTC instant, with `timezone` set) */
  date: string;
  /** IANA zone for fixed-time dues, else null. */
  timezone: string | null;
  /** As entered, or a normalised rendering when only a date was sent. */
  string: string;
  lang: string;
  is_recurring: boolean;
}

export interface DateContext {
  now: Date;
  /** The user's IANA zone: "today" and floating times are read in it. */
  timezone: string;
  /** First day of the week, 1 = Monday .. 7 = Sunday (user setting start_day). */
  startDay?: number;
  /** The weekday "next week" lands on, 1 = Monday .. 7 = Sunday (user setting next_week). */
  nextWeekDay?: number;
}

export const DEFAULT_LANG = 'en';
