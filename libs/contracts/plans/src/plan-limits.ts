import type { PlanInfo } from './plan-info';

/** The plan's counted quantities that a write can run into (sync-interface §8, "plan-dependent quantities"). */
export type PlanQuantity =
  | 'max_projects'
  | 'max_projects_joined'
  | 'max_tasks'
  | 'max_sections'
  | 'max_labels'
  | 'max_filters'
  | 'max_reminders_time'
  | 'max_reminders_location'
  | 'max_collaborators'
  | 'upload_limit_mb'
  // Workspaces: counted against the workspace's plan, but the last, against the creator's.
  | 'max_folders_per_workspace'
  | 'max_guests_per_workspace'
  | 'max_workspace_filters'
  | 'max_free_workspaces_created';

/** The plan's features a write or read can be refused for. */
export type PlanFeature =
  | 'filters'
  | 'labels'
  | 'reminders'
  | 'comments'
  | 'uploads'
  | 'templates'
  | 'activity_log'
  | 'automatic_backups'
  | 'durations'
  | 'deadlines'
  | 'completed_tasks'
  | 'workspace_filters';

export function quantityOf(plan: PlanInfo, quantity: PlanQuantity): number {
  return plan[quantity];
}
