import type { ApiTask } from '@doable/contracts-sync';
import { restV2Due } from './rest-v2-due';

/** A task's page in the web app: the `url` of REST v1 and v2 tasks. */
export function restTaskUrl(publicUrl: string, id: string): string {
  return `${publicUrl}/app/task/${id}`;
}

/**
 * The REST v2 task, from the api/v1 task the sync service writes. It lives here, in a contract
 * library, rather than in the rest service's dialect because it is written in two places: the
 * rest service writes single tasks with it, and the sync service writes whole task lists with
 * it (`ObjectsRequest.render`), so a long list is rendered once, next to its rows, and is not
 * sent to rest as api/v1 objects to be parsed and written again. One function, so both agree to
 * the byte. Most lists are now written by PostgreSQL instead (the sync service's
 * rest-v2-task-list.sql.ts, held to this function by task-list-renderer.integration-spec.ts):
 * a change of shape here is a change there too.
 */
export function restV2Task(task: ApiTask, publicUrl: string): Record<string, unknown> {
  return {
    id: task.id,
    project_id: task.project_id,
    section_id: task.section_id,
    parent_id: task.parent_id,
    content: task.content,
    description: task.description,
    is_completed: task.checked,
    labels: task.labels,
    order: task.child_order,
    priority: task.priority,
    due: task.due ? restV2Due(task.due) : null,
    deadline: task.deadline,
    duration: task.duration,
    url: restTaskUrl(publicUrl, task.id),
    comment_count: task.note_count,
    created_at: task.added_at,
    creator_id: task.added_by_uid ?? task.user_id,
    assignee_id: task.responsible_uid,
    assigner_id: task.assigned_by_uid,
  };
}
