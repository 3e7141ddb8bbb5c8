import type { ObjectOf, RenderedResource } from '@doable/contracts-sync';
import type { DialectContext, WrittenRestDialect } from './rest-dialect';

/** The queries whose objects a REST surface writes in its own shape: REST v2's, and api/v1's workspace project lists. */
export type WrittenResource = RenderedResource | 'workspace_projects';

type WriteObject<R extends WrittenResource> = (dialect: WrittenRestDialect, object: ObjectOf<R>, context: DialectContext) => unknown;

/** Which of a written dialect's writers writes the objects of each query. */
export const OBJECT_WRITERS: { readonly [R in WrittenResource]: WriteObject<R> } = {
  task: (dialect, task, context) => dialect.task(task, context),
  tasks: (dialect, task, context) => dialect.task(task, context),
  tasks_by_filter: (dialect, task, context) => dialect.task(task, context),
  project: (dialect, project, context) => dialect.project(project, context),
  projects: (dialect, project, context) => dialect.project(project, context),
  workspace_projects: (dialect, project, context) => dialect.project(project, context),
  section: (dialect, section) => dialect.section(section),
  sections: (dialect, section) => dialect.section(section),
  label: (dialect, label) => dialect.label(label),
  labels: (dialect, label) => dialect.label(label),
  comment: (dialect, comment) => dialect.comment(comment),
  comments: (dialect, comment) => dialect.comment(comment),
  collaborators: (dialect, collaborator) => dialect.collaborator(collaborator),
};
