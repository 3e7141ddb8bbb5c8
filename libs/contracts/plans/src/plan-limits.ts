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

/**
 * Whose plan a quantity is counted against. `owner`: the project's owner (a shared project
 * holds what its owner's plan allows, whoever adds to it, as on the public service); `actor`:
 * the user making the change (their own projects, labels, filters, reminders, joined projects).
 */
export const QUANTITY_SUBJECT: Readonly<Record<PlanQuantity, 'owner' | 'actor'>> = {
  max_projects: 'actor',
  max_projects_joined: 'actor',
  max_tasks: 'owner',
  max_sections: 'owner',
  max_labels: 'actor',
  max_filters: 'actor',
  max_reminders_time: 'actor',
  max_reminders_location: 'actor',
  max_collaborators: 'owner',
  upload_limit_mb: 'actor',
};

export function quantityOf(plan: PlanInfo, quantity: PlanQuantity): number {
  return plan[quantity];
}
