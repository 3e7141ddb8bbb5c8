import { projectPageUrl, type RestV2Collaborator, type RestV2Comment, type RestV2Label, type RestV2Project, type RestV2Section } from '@doable/contracts-rest';
import type { ApiCollaborator, ApiComment, ApiLabel, ApiProject, ApiSection, ObjectOf, RenderedResource } from '@doable/contracts-sync';
import { restV2Task } from './rest-v2-task.writer';

/**
 * REST v2: string ids and colour names, `is_`-prefixed booleans, absent parents and sections as
 * null (client-constraints §2.8), each object written from the api/v1 one the sync service reads.
 * Typed by the contract's REST v2 objects (the response schemas of the OpenAPI document), so a key
 * one of them gains or loses fails to compile here; the task's keys follow the task field table.
 */
export function restV2Project(project: ApiProject, publicUrl: string): RestV2Project {
  return {
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
    url: projectPageUrl(publicUrl, project.id),
  };
}

export function restV2Section(section: ApiSection): RestV2Section {
  return { id: section.id, project_id: section.project_id, order: section.section_order, name: section.name };
}

export function restV2Label(label: ApiLabel): RestV2Label {
  return { id: label.id, name: label.name, color: label.color, order: label.order ?? 0, is_favorite: label.is_favorite };
}

export function restV2Comment(comment: ApiComment): RestV2Comment {
  return {
    id: comment.id,
    task_id: comment.item_id ?? null,
    project_id: comment.item_id === undefined ? (comment.project_id ?? null) : null,
    posted_at: comment.posted_at,
    content: comment.content,
    attachment: comment.file_attachment,
  };
}

export function restV2Collaborator(collaborator: ApiCollaborator): RestV2Collaborator {
  return { id: collaborator.id, name: collaborator.name, email: collaborator.email };
}

/** How REST v2 writes the objects of each query it is asked to render, and whether the query reads one object or a list. */
export type RestV2Writers = { readonly [R in RenderedResource]: { readonly one: boolean; readonly write: (object: ObjectOf<R>, publicUrl: string) => unknown } };

export const REST_V2_WRITERS: RestV2Writers = {
  task: { one: true, write: restV2Task },
  tasks: { one: false, write: restV2Task },
  tasks_by_filter: { one: false, write: restV2Task },
  project: { one: true, write: restV2Project },
  projects: { one: false, write: restV2Project },
  section: { one: true, write: restV2Section },
  sections: { one: false, write: restV2Section },
  label: { one: true, write: restV2Label },
  labels: { one: false, write: restV2Label },
  comment: { one: true, write: restV2Comment },
  comments: { one: false, write: restV2Comment },
  collaborators: { one: false, write: restV2Collaborator },
};
