import { colorId } from '@doable/contracts-sync';
import { projectUrl, taskUrl, type WrittenRestDialect } from './rest-dialect';

/** REST v1 ids are JSON integers (client-constraints §2.9); ours fit a double exactly. */
const int = (id: string): number => Number(id);

/** Optional keys are left out, never null: the v1 client's runtypes refuse null there. */
function present<T>(key: string, value: T | null | undefined, write: (value: T) => unknown = (v) => v): Record<string, unknown> {
  return value === null || value === undefined ? {} : { [key]: write(value) };
}

/**
 * REST v1: integer ids and colours, `section_id: 0` and a task's `parent_id: 0` for none, other
 * optional keys omitted rather than null, and 204 for updates.
 */
export const restV1Dialect: WrittenRestDialect = {
  surface: 'rest-v1',
  writtenBy: 'rest',
  updateAnswersObject: false,
  paginated: false,
  task: (task, context) => ({
    id: int(task.id),
    project_id: int(task.project_id),
    section_id: task.section_id === null ? 0 : int(task.section_id),
    // The spec's task has `parent_id: 0` for a top-level task; 1.7.0's runtype is an optional
    // Int, so 0 passes (only null would not). `parent`, the old alias, stays for subtasks only.
    parent_id: task.parent_id === null ? 0 : int(task.parent_id),
    ...present('parent', task.parent_id, int),
    content: task.content,
    description: task.description,
    completed: task.checked,
    label_ids: task.labels.flatMap((name) => {
      const id = context.labelIds?.get(name.toLowerCase());
      return id === undefined ? [] : [int(id)];
    }),
    order: task.child_order,
    priority: task.priority,
    comment_count: task.note_count,
    created: task.added_at,
    creator: int(task.added_by_uid ?? task.user_id),
    assigner: task.assigned_by_uid === null ? null : int(task.assigned_by_uid),
    ...present('assignee', task.responsible_uid, int),
    ...present('due', task.due, (due) => ({
      recurring: due.is_recurring,
      string: due.string,
      date: due.date.slice(0, 10),
      ...(due.date.length > 10 ? { datetime: due.date } : {}),
      ...present('timezone', due.timezone),
    })),
    url: taskUrl(context, task.id),
  }),
  project: (project, context) => ({
    id: int(project.id),
    name: project.name,
    color: colorId(project.color),
    ...present('parent_id', project.parent_id, int),
    ...present('parent', project.parent_id, int),
    order: project.child_order,
    comment_count: project.note_count ?? 0,
    shared: project.is_shared,
    favorite: project.is_favorite,
    ...(project.inbox_project === true ? { inbox_project: true } : {}),
    // Copies of a shared project are one row here, seen by every member under the same id, so
    // that id is what matches them across accounts; 0 says "not shared" (the spec).
    sync_id: project.is_shared ? int(project.id) : 0,
    url: projectUrl(context, project.id),
  }),
  section: (section) => ({ id: int(section.id), project_id: int(section.project_id), order: section.section_order, name: section.name }),
  label: (label) => ({ id: int(label.id), name: label.name, color: colorId(label.color), order: label.order ?? 0, favorite: label.is_favorite }),
  comment: (comment) => ({
    id: int(comment.id),
    content: comment.content,
    posted: comment.posted_at,
    ...present('task_id', comment.item_id, int),
    ...(comment.item_id === undefined ? present('project_id', comment.project_id, int) : {}),
    ...present('attachment', comment.file_attachment),
  }),
  collaborator: (collaborator) => ({ id: int(collaborator.id), name: collaborator.name, email: collaborator.email }),
};
