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
  | 'upload_limit_mb';

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
  | 'completed_tasks';

export function quantityOf(plan: PlanInfo, quantity: PlanQuantity): number {
  return plan[quantity];
}
