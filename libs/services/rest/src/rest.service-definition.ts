import { env } from '@doable/shared-config';
import type { ServiceDefinition } from '@doable/shared-runtime';
import { Module } from '@nestjs/common';
import { z } from 'zod';
import { SyncObjects } from './objects/sync-objects.client';
import { CommentsResource } from './resources/comments.resource';
import { IdMappingsResource } from './resources/id-mappings.resource';
import { LabelsResource } from './resources/labels.resource';
import { ProjectsResource } from './resources/projects.resource';
import { PUBLIC_URL, ResourceKit } from './resources/resource-kit';
import { SectionsResource } from './resources/sections.resource';
import { TasksResource } from './resources/tasks.resource';
import { UserResource } from './resources/user.resource';
import { FoldersResource } from './resources/folders.resource';
import { WorkspacesResource } from './resources/workspaces.resource';
import { RestRouter } from './rest-router';
import { RestRpcController } from './rest.rpc-controller';

const restEnv = z.object({
  /** Where users reach the product: the base of the `url` fields REST v1/v2 objects carry. */
  PUBLIC_URL: env.publicUrl(),
});

function restModule(publicUrl: string) {
  @Module({
    controllers: [RestRpcController],
    providers: [
      { provide: PUBLIC_URL, useValue: publicUrl },
      SyncObjects,
      ResourceKit,
      TasksResource,
      ProjectsResource,
      SectionsResource,
      LabelsResource,
      CommentsResource,
      UserResource,
      IdMappingsResource,
      WorkspacesResource,
      FoldersResource,
      RestRouter,
    ],
  })
  class RestModule {}
  return RestModule;
}

/** REST v1, REST v2 and api/v1 REST as dialects over the sync engine (stateless: no schema). */
export const restService = {
  name: 'rest',
  defaultPort: 3002,
  env: restEnv,
  imports: (config) => [restModule(config.PUBLIC_URL)],
} satisfies ServiceDefinition<typeof restEnv>;
