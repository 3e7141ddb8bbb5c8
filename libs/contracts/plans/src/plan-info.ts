import { z } from 'zod';

/**
 * A plan as the `user_plan_limits` resource shows it (sync-interface §2, "User plan limits";
 * public-api-facts §1.7). The schema is strict: a catalogue file that misspells a key is refused
 * at start instead of silently leaving that limit at nothing.
 */
export const planInfoSchema = z.strictObject({
  plan_name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'lower-case letters, digits, - and _ (up to 40)'),
  // Features (booleans).
  activity_log: z.boolean(),
  automatic_backups: z.boolean(),
  calendar_feeds: z.boolean(),
  comments: z.boolean(),
  completed_tasks: z.boolean(),
  custom_app_icon: z.boolean(),
  customization_color: z.boolean(),
  email_forwarding: z.boolean(),
  filters: z.boolean(),
  workspace_filters: z.boolean(),
  labels: z.boolean(),
  reminders: z.boolean(),
  templates: z.boolean(),
  uploads: z.boolean(),
  weekly_trends: z.boolean(),
  advanced_permissions: z.boolean(),
  calendar_layout: z.boolean(),
  deadlines: z.boolean(),
  durations: z.boolean(),
  reminders_at_due: z.boolean(),
  // Quantities. -1 is "unlimited" for activity_log_limit (days) as on the public service; the
  // max_* counts are whole numbers (a self-hoster wanting no cap writes a large one).
  activity_log_limit: z.number().int().min(-1),
  max_filters: z.number().int().min(0),
  max_workspace_filters: z.number().int().min(0),
  max_labels: z.number().int().min(0),
  max_reminders_location: z.number().int().min(0),
  max_reminders_time: z.number().int().min(0),
  upload_limit_mb: z.number().int().min(0),
  max_projects: z.number().int().min(0),
  max_sections: z.number().int().min(0),
  max_tasks: z.number().int().min(0),
  max_collaborators: z.number().int().min(0),
  max_calendar_accounts: z.number().int().min(0),
  max_folders_per_workspace: z.number().int().min(0),
  max_free_workspaces_created: z.number().int().min(0),
  max_guests_per_workspace: z.number().int().min(0),
  max_projects_joined: z.number().int().min(0),
  max_user_templates: z.number().int().min(0),
});

export type PlanInfo = z.infer<typeof planInfoSchema>;

export const userPlanLimitsSchema = z.object({ current: planInfoSchema, next: planInfoSchema.nullable() });

export interface UserPlanLimits {
  current: PlanInfo;
  next: PlanInfo | null;
}
