import { integerId } from './legacy-values';

const DIGITS = /^\d+$/;

/**
 * project_archived's `project_id` as the integer sync-interface §6 gives it, for the generations
 * whose readers do not validate it (v9, v7, v6; v8 turns every id to an integer itself). api/v1
 * keeps the string: the SDK's LiveNotificationSchema (10.5, 11, 17) validates `projectId` as a
 * string on every notification, so an integer would fail its sync().
 */
export function withIntegerArchivedProjectIds(body: Record<string, unknown>): void {
  const notifications = body['live_notifications'];
  if (!Array.isArray(notifications)) return;
  body['live_notifications'] = notifications.map((notification: Record<string, unknown>) => {
    const projectId = notification['project_id'];
    if (notification['notification_type'] !== 'project_archived' || typeof projectId !== 'string' || !DIGITS.test(projectId)) return notification;
    return { ...notification, project_id: integerId(projectId) };
  });
}
