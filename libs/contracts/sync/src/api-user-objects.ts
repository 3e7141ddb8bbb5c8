/**
 * The user and their statistics as sync answers them (sdk 17 SyncUserSchema, CurrentUserSchema,
 * ProductivityStatsSchema; contracts-rest's api-v1-account-objects.schema.ts describes the same
 * keys for the OpenAPI document). Type aliases, as in api-objects.ts.
 */

/** A time zone as the user object carries it. */
export type ApiTimeZoneInfo = {
  readonly timezone: string;
  readonly hours: number;
  readonly minutes: number;
  readonly is_dst: 0 | 1;
  readonly gmt_string: string;
};

/**
 * The Sync API `user` object (v9 and api/v1 agree on it): every key the official SDK requires;
 * features a self-hosted server does not have carry their neutral values.
 */
export type ApiSyncUser = {
  readonly id: string;
  readonly email: string;
  readonly full_name: string;
  readonly activated_user: boolean;
  readonly auto_reminder: number;
  readonly business_account_id: string | null;
  readonly daily_goal: number;
  readonly date_format: number;
  readonly dateist_lang: string | null;
  readonly days_off: readonly number[];
  readonly feature_identifier: string;
  readonly features: {
    readonly karma_disabled: boolean;
    readonly restriction: number;
    readonly karma_vacation: boolean;
    readonly dateist_lang: string | null;
    readonly beta: 0 | 1;
    readonly has_push_reminders: boolean;
    readonly dateist_inline_disabled: boolean;
  };
  readonly has_magic_number: boolean;
  readonly has_password: boolean;
  readonly image_id: string | null;
  /** Present only with an avatar (AvatarUrls): the SDK takes them as optional, never null. */
  readonly avatar_big?: string;
  readonly avatar_medium?: string;
  readonly avatar_small?: string;
  readonly avatar_s640?: string;
  readonly inbox_project_id: string;
  readonly is_celebrations_enabled: boolean;
  readonly is_premium: boolean;
  readonly joinable_workspace: { readonly workspace_id: string; readonly workspace_name: string; readonly member_count: number } | null;
  readonly joined_at: string;
  readonly getting_started_guide_projects: ReadonlyArray<{ readonly onboarding_use_case: string; readonly project_id: string; readonly completed: boolean; readonly closed: boolean }> | null;
  readonly karma: number;
  readonly karma_trend: string;
  readonly lang: string;
  readonly mfa_enabled: boolean;
  readonly next_week: number;
  readonly premium_status: 'not_premium' | 'current_personal_plan' | 'legacy_personal_plan' | 'teams_business_member';
  readonly premium_until: string | null;
  readonly share_limit: number;
  readonly sort_order: number;
  readonly start_day: number;
  readonly start_page: string;
  readonly theme_id: string;
  readonly time_format: number;
  readonly tz_info: ApiTimeZoneInfo;
  readonly unique_prefix: number;
  readonly verification_status: string;
  /** The push channel (a WebSocket URL with a token for this user) at the caller's origin; empty where none was made. */
  readonly websocket_url: string;
  readonly weekend_start_day: number;
  readonly weekly_goal: number;
};

/** `GET /api/v1/user`: the sync user plus the completion counters the SDK requires. */
export type ApiUser = ApiSyncUser & {
  readonly completed_count: number;
  readonly completed_today: number;
};

/** A run of consecutive periods that met a goal, with ISO dates. */
export type ApiStreak = { readonly count: number; readonly start: string; readonly end: string };

/** Completions by project over a period. */
type ApiCompletions = {
  readonly items: ReadonlyArray<{ readonly id: string; readonly completed: number }>;
  readonly total_completed: number;
};

/** `GET /api/v1/tasks/completed/stats`: the last 7 days and 4 weeks of completions by project, goals and streaks, karma. */
export type ApiProductivityStats = {
  readonly completed_count: number;
  readonly days_items: ReadonlyArray<{ readonly date: string } & ApiCompletions>;
  readonly week_items: ReadonlyArray<{ readonly from: string; readonly to: string } & ApiCompletions>;
  readonly goals: {
    readonly daily_goal: number;
    readonly weekly_goal: number;
    readonly ignore_days: readonly number[];
    readonly vacation_mode: 0 | 1;
    readonly karma_disabled: 0 | 1;
    readonly user: string;
    readonly user_id: string;
    readonly current_daily_streak: ApiStreak;
    readonly last_daily_streak: ApiStreak;
    readonly max_daily_streak: ApiStreak;
    readonly current_weekly_streak: ApiStreak;
    readonly last_weekly_streak: ApiStreak;
    readonly max_weekly_streak: ApiStreak;
  };
  readonly karma: number;
  readonly karma_graph_data: ReadonlyArray<{ readonly date: string; readonly karma_avg: number }>;
  readonly karma_last_update: number;
  readonly karma_trend: string;
  readonly karma_update_reasons: ReadonlyArray<Readonly<Record<string, unknown>>>;
  readonly project_colors: Readonly<Record<string, string>>;
};
