import type { ServiceDefinition } from '@doable/shared-runtime';
import { Module } from '@nestjs/common';
import { z } from 'zod';
import { CommandExecutor } from './engine/command-executor';
import { CommandLogRepository } from './engine/command-log.repository';
import { COMMAND_HANDLERS } from './engine/commands/command-handler';
import { ProjectAddCommand } from './engine/commands/project-add.command';
import { SyncEngine } from './engine/sync-engine';
import { syncMigrations } from './migrations';
import { ProjectRepository } from './projects/project.repository';
import { SyncReader } from './read/sync-reader';
import { SyncRpcController } from './rpc/sync.rpc-controller';
import { UserCreatedConsumer } from './users/user-created.consumer';
import { UserProfileRepository } from './users/user-profile.repository';

@Module({
  controllers: [SyncRpcController],
  providers: [
    UserProfileRepository,
    ProjectRepository,
    CommandLogRepository,
    { provide: COMMAND_HANDLERS, useFactory: (projects: ProjectRepository) => [new ProjectAddCommand(projects)], inject: [ProjectRepository] },
    CommandExecutor,
    SyncReader,
    SyncEngine,
    UserCreatedConsumer,
  ],
})
export class SyncModule {}

/** The task domain and the Sync API. */
export const syncService = {
  name: 'sync',
  defaultPort: 3001,
  env: z.object({}),
  database: { schema: 'sync', migrations: syncMigrations },
  imports: () => [SyncModule],
} satisfies ServiceDefinition;
