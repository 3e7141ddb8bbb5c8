import { restV2Task } from '@doable/contracts-rest';
import { projectUrl, type RestDialect } from './rest-dialect';

/**
 * REST v2: string ids and colour names, `is_`-prefixed booleans, absent parents and sections as
 * null (client-constraints §2.8). Updates answer the updated object.
 */
export const restV2Dialect: RestDialect = {
  surface: 'rest-v2',
  updateAnswersObject: true,
  paginated: false,
  // Shared with the sync service, which writes REST v2 task lists itself (see restV2Task).
  task: (task, context) => restV2Task(task, context.publicUrl),
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
