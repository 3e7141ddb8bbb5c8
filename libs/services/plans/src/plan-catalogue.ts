import type { PlanInfo } from '@doable/contracts-plans';

/**
 * The plans a self-hosted server offers. `free` mirrors the public service's free tier so
 * clients behave as they would there; `pro` lifts the limits. Operators change plans here.
 */
const FREE: PlanInfo = {
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

const PRO: PlanInfo = {
  ...FREE,
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
  max_reminders_time: 700,
  upload_limit_mb: 100,
  max_projects: 300,
  max_sections: 20,
  max_tasks: 300,
  max_collaborators: 25,
  max_calendar_accounts: 10,
  max_user_templates: 100,
};

export const PLANS: Readonly<Record<string, PlanInfo>> = { free: FREE, pro: PRO };
export const DEFAULT_PLAN = 'free';
/** The upgrade offered from each plan, if any. */
export const NEXT_PLAN: Readonly<Record<string, string | null>> = { free: 'pro', pro: null };
