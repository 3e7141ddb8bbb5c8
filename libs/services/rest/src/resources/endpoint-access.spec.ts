import { REST_ENDPOINTS, type RestEndpoint } from '@doable/contracts-rest';
import type { ObjectsRequest } from '@doable/contracts-sync';
import type { ServiceClient } from '@doable/shared-transport';
import type { RestCall } from '../call/rest-call';
import { SyncObjects } from '../objects/sync-objects.client';
import { CommentsResource } from './comments.resource';
import { FoldersResource } from './folders.resource';
import { IdMappingsResource } from './id-mappings.resource';
import { LabelsResource } from './labels.resource';
import type { OperationHandler } from './operation';
import { ProjectsResource } from './projects.resource';
import { ResourceKit } from './resource-kit';
import { SectionsResource } from './sections.resource';
import { TasksResource } from './tasks.resource';
import { UserResource } from './user.resource';
import { WorkspacesResource } from './workspaces.resource';

/**
 * Each REST endpoint says what it does in the policies' terms (RestEndpoint.access: the resource
 * it reads, or the command it runs), which the OpenAPI document's `security` is derived from.
 * This spec runs every operation against a recording stand-in of the sync service and holds the
 * line to what the operation really asks: a read asks that resource first and runs no command, a
 * write runs that command. (sync's rest-endpoint-access.spec.ts holds a write's scopes to the
 * command's declaration.)
 */
function recordingKit(): { kit: ResourceKit; requests: ObjectsRequest[] } {
  const requests: ObjectsRequest[] = [];
  const client = {
    request: (_subject: string, payload: ObjectsRequest) => {
      requests.push(payload);
      const tempIds = Object.fromEntries(payload.commands.filter((command) => command.temp_id).map((command) => [command.temp_id, '900']));
      // One bare object whatever was asked: enough for an operation that reads before it writes to go on.
      return Promise.resolve({ tempIdMapping: tempIds, objects: [{ id: '1' }], hasMore: false });
    },
  } as unknown as ServiceClient;
  return { kit: new ResourceKit(new SyncObjects(client), 'https://doable.example'), requests };
}

/** Arguments every operation accepts enough of to ask the sync service (comments want one target, so they name only a task). */
const PARAMS = { id: '1', user_id: '2', invite_code: 'secret', object: 'tasks', ids: '1' };
const QUERY = { query: 'x', workspace_id: '1', project_id: '1' };
const BODY = { content: 'x', name: 'x', new_name: 'y', project_id: '1', workspace_id: '1', email: 'ann@example.test', user_email: 'ann@example.test', email_list: ['ann@example.test'], role: 'MEMBER' };
const COMMENT_TARGET = { task_id: '1' };

function callOf(endpoint: RestEndpoint): RestCall {
  const onComment = endpoint.operation.startsWith('comments.');
  return {
    surface: endpoint.surfaces.includes('rest-api-v1') ? 'rest-api-v1' : endpoint.surfaces[0],
    operation: endpoint.operation,
    principal: { userId: '7', scopes: ['data:read_write'], appId: null, tokenKind: 'personal' },
    params: PARAMS,
    query: onComment ? COMMENT_TARGET : QUERY,
    body: onComment ? { ...BODY, project_id: undefined, ...COMMENT_TARGET } : BODY,
    requestId: null,
  };
}

describe('what each REST endpoint declares it does (RestEndpoint.access)', () => {
  it.each(REST_ENDPOINTS.map((endpoint) => [endpoint.operation, endpoint] as const))('%s does it', async (_operation, endpoint) => {
    const { kit, requests } = recordingKit();
    const resources = [TasksResource, ProjectsResource, SectionsResource, LabelsResource, CommentsResource, UserResource, IdMappingsResource, WorkspacesResource, FoldersResource].map((Resource) => new Resource(kit));
    const handler: OperationHandler | undefined = resources.map((resource) => resource.operations[endpoint.operation]).find((found) => found !== undefined);
    // An operation whose answer needs more of the bare object fails after asking, which is all this looks at.
    await handler?.(callOf(endpoint)).catch(() => undefined);
    const commands = requests.flatMap((request) => request.commands.map((command) => command.type));
    if ('reads' in endpoint.access) {
      expect({ first: requests[0]?.query?.resource, commands }).toEqual({ first: endpoint.access.reads, commands: [] });
    } else {
      expect(commands).toContain(endpoint.access.runs);
    }
  });
});
