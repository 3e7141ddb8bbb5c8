import { projectUrl, type RestDialect, taskUrl } from './rest-dialect';
import { restV2Due } from './rest-v2-due';

/**
 * REST v2: string ids and colour names, `is_`-prefixed booleans, absent parents and sections as
 * null (client-constraints §2.8). Updates answer the updated object.
 */
export const restV2Dialect: RestDialect = {
  surface: 'rest-v2',
  updateAnswersObject: true,
  paginated: false,
  task: (task, context) => ({
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
    url: taskUrl(context, task.id),
    comment_count: task.note_count,
    created_at: task.added_at,
    creator_id: task.added_by_uid ?? task.user_id,
    assignee_id: task.responsible_uid,
    assigner_id: task.assigned_by_uid,
  }),
  project: (project, context) => ({
    id: project.id,
    name: project.name,
    color: project.color,
    parent_id: project.parent_id,
    order: project.child_order,
    comment_count: project.note_count ?? 0,
    is_shared: project.is_shared,
    is_favorite: project.is_favorite,
    is_inbox_project: project.inbox_project === true,
    is_team_inbox: false,
    view_style: project.view_style,
    url: projectUrl(context, project.id),
  }),
  section: (section) => ({ id: section.id, project_id: section.project_id, order: section.section_order, name: section.name }),
  label: (label) => ({ id: label.id, name: label.name, color: label.color, order: label.order ?? 0, is_favorite: label.is_favorite }),
  comment: (comment) => ({
    id: comment.id,
    task_id: comment.item_id ?? null,
    project_id: comment.item_id === undefined ? (comment.project_id ?? null) : null,
    posted_at: comment.posted_at,
    content: comment.content,
    attachment: comment.file_attachment,
  }),
  collaborator: (collaborator) => ({ id: collaborator.id, name: collaborator.name, email: collaborator.email }),
};
