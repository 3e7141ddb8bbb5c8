import { projectPageUrl, type RestSurface, taskPageUrl } from '@doable/contracts-rest';
import type { ApiCollaborator, ApiComment, ApiLabel, ApiProject, ApiSection, ApiTask, ObjectsRender } from '@doable/contracts-sync';

export interface DialectContext {
  /** Where the product is reached: the base of the `url` fields of REST v1/v2. */
  readonly publicUrl: string;
  /** REST v1 only: the user's personal label ids by lower-cased name, for `label_ids`. */
  readonly labelIds?: ReadonlyMap<string, string>;
}

/** What every REST surface decides beside its objects' shape. */
interface RestSurfaceRules {
  readonly surface: RestSurface;
  /** REST v1 answers updates with 204; REST v2 and api/v1 with the updated object. */
  readonly updateAnswersObject: boolean;
  /** api/v1 lists are `{results, next_cursor}` pages; REST v1/v2 lists are whole arrays. */
  readonly paginated: boolean;
}

/**
 * A surface rest writes itself: how it writes each object from the api/v1 shape the sync service
 * answers in. One file per surface; everything else (arguments, commands, paging) is shared.
 */
export interface WrittenRestDialect extends RestSurfaceRules {
  readonly writtenBy: 'rest';
  task(task: ApiTask, context: DialectContext): Record<string, unknown>;
  project(project: ApiProject, context: DialectContext): Record<string, unknown>;
  section(section: ApiSection): Record<string, unknown>;
  label(label: ApiLabel): Record<string, unknown>;
  comment(comment: ApiComment): Record<string, unknown>;
  collaborator(collaborator: ApiCollaborator): Record<string, unknown>;
}

/**
 * A surface whose objects the sync service writes (`ObjectsRequest.render`): REST v2, a dialect
 * of libs/sync/dialects, whose task lists PostgreSQL writes. Rest asks for the answer in it and
 * passes the JSON text on.
 */
export interface RenderedRestDialect extends RestSurfaceRules {
  readonly writtenBy: 'sync';
  readonly render: ObjectsRender['dialect'];
}

export type RestDialect = WrittenRestDialect | RenderedRestDialect;

export function taskUrl(context: DialectContext, id: string): string {
  return taskPageUrl(context.publicUrl, id);
}

export function projectUrl(context: DialectContext, id: string): string {
  return projectPageUrl(context.publicUrl, id);
}
