import type { RenderedRestDialect } from './rest-dialect';

/**
 * REST v2 (client-constraints §2.8): written by the sync service (libs/sync/dialects/src/rest-v2),
 * one dialect with its JavaScript writers and the SQL that writes long task lists; rest builds the
 * commands and queries and passes the text on. Updates answer the updated object; lists are whole arrays.
 */
export const restV2Dialect: RenderedRestDialect = {
  surface: 'rest-v2',
  updateAnswersObject: true,
  paginated: false,
  writtenBy: 'sync',
  render: 'rest-v2',
};
