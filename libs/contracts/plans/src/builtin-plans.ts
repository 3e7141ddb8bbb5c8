import type { PlanInfo, UserPlanLimits } from './plan-info';

/**
 * The plans a server offers when its operator has not written a catalogue of their own
 * (PLANS_FILE, see the plans service). `free` mirrors the public service's free tier
 * (public-api-facts §1.7: 5 active projects, 300 tasks per project, no location reminders), so
 * clients behave as they would there; `pro` and `business` lift the limits as the paid tiers do.
 * Sync also falls back to `free` for a user whose plan has not reached it yet (a few
 * milliseconds after sign-up).
 */
export const BUILTIN_FREE: PlanInfo = {
  plan_name: 'free',
  activity_log: false,
  activity_log_limit: 7,
  automatic_backups: false,
  calendar_feeds: true,
  comments: true,
  completed_tasks: true,
  custom_app_icon: false,
  customization_color: false,
  email_forwarding: true,
  filters: true,
  workspace_filters: true,
  labels: true,
  reminders: true,
  templates: true,
  uploads: true,
  weekly_trends: true,
  advanced_permissions: false,
  calendar_layout: true,
  deadlines: true,
  durations: true,
  reminders_at_due: true,
  max_filters: 3,
  max_workspace_filters: 3,
  max_labels: 500,
  max_reminders_location: 0,
  max_reminders_time: 700,
  upload_limit_mb: 5,
  max_projects: 5,
  max_sections: 20,
  max_tasks: 300,
  max_collaborators: 5,
  max_calendar_accounts: 1,
  max_folders_per_workspace: 0,
  max_free_workspaces_created: 1,
  max_guests_per_workspace: 0,
  max_projects_joined: 20,
  max_user_templates: 0,
};

const BUILTIN_PRO: PlanInfo = {
  ...BUILTIN_FREE,
  plan_name: 'pro',
  activity_log: true,
  activity_log_limit: -1,
  automatic_backups: true,
  custom_app_icon: true,
  customization_color: true,
  advanced_permissions: true,
  max_filters: 150,
  max_workspace_filters: 150,
  max_reminders_location: 300,
  upload_limit_mb: 100,
  max_projects: 300,
  max_collaborators: 25,
  max_calendar_accounts: 10,
  max_projects_joined: 300,
  max_user_templates: 100,
};

export const BUILTIN_BUSINESS: PlanInfo = {
  ...BUILTIN_PRO,
  plan_name: 'business',
  max_projects: 500,
  max_collaborators: 250,
  max_folders_per_workspace: 1000,
  max_guests_per_workspace: 1000,
  max_projects_joined: 1000,
  max_user_templates: 500,
};

/** A catalogue: its plans in upgrade order, the default for new accounts, and each plan's upgrade. */
export interface PlanCatalogue {
  readonly plans: readonly PlanInfo[];
  readonly defaultPlan: string;
  /** plan name -> the plan offered as `next`, or null for none. */
  readonly next: Readonly<Record<string, string | null>>;
}

export const BUILTIN_CATALOGUE: PlanCatalogue = {
  plans: [BUILTIN_FREE, BUILTIN_PRO, BUILTIN_BUSINESS],
  defaultPlan: 'free',
  next: { free: 'pro', pro: 'business', business: null },
};

/** The built-in default plan's `user_plan_limits` value. */
export const BUILTIN_DEFAULT_LIMITS: UserPlanLimits = { current: BUILTIN_FREE, next: BUILTIN_PRO };
