/** A plan as the `user_plan_limits` resource shows it (sync-interface §2, "User plan limits"). */
export interface PlanInfo {
  plan_name: string;
  activity_log: boolean;
  activity_log_limit: number;
  automatic_backups: boolean;
  calendar_feeds: boolean;
  comments: boolean;
  completed_tasks: boolean;
  custom_app_icon: boolean;
  customization_color: boolean;
  email_forwarding: boolean;
  filters: boolean;
  workspace_filters: boolean;
  labels: boolean;
  reminders: boolean;
  templates: boolean;
  uploads: boolean;
  weekly_trends: boolean;
  advanced_permissions: boolean;
  calendar_layout: boolean;
  deadlines: boolean;
  durations: boolean;
  reminders_at_due: boolean;
  max_filters: number;
  max_workspace_filters: number;
  max_labels: number;
  max_reminders_location: number;
  max_reminders_time: number;
  upload_limit_mb: number;
  max_projects: number;
  max_sections: number;
  max_tasks: number;
  max_collaborators: number;
  max_calendar_accounts: number;
  max_folders_per_workspace: number;
  max_free_workspaces_created: number;
  max_guests_per_workspace: number;
  max_projects_joined: number;
  max_user_templates: number;
}

export interface UserPlanLimits {
  current: PlanInfo;
  next: PlanInfo | null;
}
