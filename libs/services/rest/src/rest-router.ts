import { type EdgeReply, type EdgeRequest, jsonReply } from '@doable/contracts-common';
import type { WithPrincipal } from '@doable/shared-transport';
import { findRestEndpoint, REST_ENDPOINTS, REST_SURFACES, type RestSurface } from '@doable/contracts-rest';
import { DomainError } from '@doable/shared-errors';
import { Injectable } from '@nestjs/common';
import type { RestCall } from './call/rest-call';
import { checkRestInput } from './call/rest-input';
import type { OperationHandler } from './resources/operation';
import { CommentsResource } from './resources/comments.resource';
import { IdMappingsResource } from './resources/id-mappings.resource';
import { LabelsResource } from './resources/labels.resource';
import { ProjectsResource } from './resources/projects.resource';
import { SectionsResource } from './resources/sections.resource';
import { TasksResource } from './resources/tasks.resource';
import { UserResource } from './resources/user.resource';
import { FoldersResource } from './resources/folders.resource';
import { WorkspacesResource } from './resources/workspaces.resource';

function isSurface(dialect: string): dialect is RestSurface {
  return (REST_SURFACES as readonly string[]).includes(dialect);
}

/** A JSON object body, or none; anything else is the client's mistake, said plainly. */
function bodyObject(body: unknown): Record<string, unknown> {
  if (body === null || body === undefined || body === '') return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new DomainError('INVALID_ARGUMENT_VALUE', 'The request body must be a JSON object', { argument: 'body' });
  return body as Record<string, unknown>;
}

/**
 * Finds the operation of an edge request (from the same endpoint list the gateway routes by)
 * and hands it to its resource. Knows no resource's rules.
 */
@Injectable()
export class RestRouter {
  private readonly handlers: ReadonlyMap<string, OperationHandler>;

  constructor(
    tasks: TasksResource,
    projects: ProjectsResource,
    sections: SectionsResource,
    labels: LabelsResource,
    comments: CommentsResource,
    user: UserResource,
    idMappings: IdMappingsResource,
    workspaces: WorkspacesResource,
    folders: FoldersResource,
  ) {
    this.handlers = new Map([tasks, projects, sections, labels, comments, user, idMappings, workspaces, folders].flatMap((resource) => Object.entries(resource.operations)));
    const unhandled = REST_ENDPOINTS.filter((endpoint) => !this.handlers.has(endpoint.operation));
    if (unhandled.length > 0) throw new Error(`REST operations without a handler: ${unhandled.map((endpoint) => endpoint.operation).join(', ')}`);
  }

  /** The caller was checked at the edge (RestRpcController's Handles): a principal is there. */
  async handle(request: WithPrincipal<EdgeRequest>): Promise<EdgeReply> {
    if (!isSurface(request.dialect)) throw new DomainError('ROUTE_NOT_FOUND', `rest does not speak ${request.dialect}`);
    const found = findRestEndpoint(request.dialect, request.method, request.path);
    const handler = found && this.handlers.get(found.endpoint.operation);
    if (!found || !handler) throw new DomainError('ROUTE_NOT_FOUND', `No endpoint at ${request.path}`);
    const call: RestCall = {
      surface: request.dialect,
      operation: found.endpoint.operation,
      principal: request.principal,
      params: { ...found.params, ...request.params },
      query: request.query,
      body: bodyObject(request.body),
      requestId: request.requestId,
      ...(request.origin === undefined ? {} : { origin: request.origin }),
    };
    checkRestInput(call);
    const reply = await handler(call);
    // Serialised here, once: the gateway sends the text as it is.
    return reply.contentType === undefined ? jsonReply(reply.status, reply.body, reply.headers) : reply;
  }
}
