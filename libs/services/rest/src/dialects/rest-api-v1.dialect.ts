import type { WrittenRestDialect } from './rest-dialect';

/**
 * The api/v1 REST surface: the sync service's api/v1 objects as they are (client-constraints
 * §2.1-2.6), lists paged. Only the project's comment counter, which no v1 client knows, is dropped.
 */
export const restApiV1Dialect: WrittenRestDialect = {
  surface: 'rest-api-v1',
  writtenBy: 'rest',
  updateAnswersObject: true,
  paginated: true,
  task: (task) => ({ ...task }),
  project: ({ note_count: _comments, ...project }) => ({ ...project }),
  section: (section) => ({ ...section }),
  label: (label) => ({ id: label.id, name: label.name, color: label.color, order: label.order, is_favorite: label.is_favorite }),
  comment: (comment) => ({ ...comment }),
  collaborator: (collaborator) => ({ id: collaborator.id, name: collaborator.name, email: collaborator.email }),
};
