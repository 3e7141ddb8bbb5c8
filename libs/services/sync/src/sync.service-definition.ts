import type { ServiceDefinition } from '@doable/shared-runtime';
import { Module } from '@nestjs/common';
import { z } from 'zod';
import { CommandExecutor } from './engine/command-executor';
import { CommandLogRepository } from './engine/command-log.repository';
import { COMMAND_HANDLERS } from './engine/commands/command-handler';
import { projectCommands } from './engine/commands/projects';
import { itemCommands } from './engine/commands/items';
import { ItemDates } from './items/item-dates';
import { ItemRepository } from './items/item.repository';
import { sectionCommands } from './engine/commands/sections/section-commands';
import { SectionRepository } from './sections/section.repository';
import { SyncEngine } from './engine/sync-engine';
import { syncMigrations } from './migrations';
import { ProjectRepository } from './projects/project.repository';
import { resourceProviders } from './read/resources';
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
    ItemRepository,
    SectionRepository,
    ItemDates,
    {
      provide: COMMAND_HANDLERS,
      useFactory: (projects: ProjectRepository, items: ItemRepository, sections: SectionRepository, dates: ItemDates) => [
        ...projectCommands(projects, sections, items),
        ...itemCommands(items, projects, sections, dates),
        ...sectionCommands(sections, projects, items),
      ],
      inject: [ProjectRepository, ItemRepository, SectionRepository, ItemDates],
    },
    CommandExecutor,
    ...resourceProviders,
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
