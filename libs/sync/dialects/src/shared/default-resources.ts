import { wireDate } from './wire-format';

/** Resources whose storage arrives with later work, in the shape clients validate. */
export function defaultUserSettings(): Record<string, unknown> {
  return {
    reminder_push: true,
    reminder_desktop: true,
    reminder_email: true,
    completed_sound_desktop: true,
    completed_sound_mobile: true,
    reset_recurring_subtasks: false,
    // sdk 10.5 accepts boolean | 0 | 1, sdk 17 a number: 0 satisfies both.
    legacy_pricing: 0,
    ai_email_assist: false,
    navigation: { counts_shown: true, features: [] },
    quick_add: { labels_shown: true, features: [] },
  };
}

export function emptyStats(now: Date): Record<string, unknown> {
  const day = (now.getUTCDay() + 6) % 7;
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - day));
  const sunday = new Date(monday.getTime() + 6 * 86_400_000);
  return {
    completed_count: 0,
    days_items: [{ date: wireDate(now), total_completed: 0 }],
    week_items: [{ from: wireDate(monday), to: wireDate(sunday), total_completed: 0 }],
  };
}
