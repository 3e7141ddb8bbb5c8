import { randomUUID } from 'node:crypto';
import { type Principal, SCOPES } from '@doable/contracts-common';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { ServiceClient } from '@doable/shared-transport';
import type { DataSource } from 'typeorm';
import { CollaboratorRepository, CompletionStatsRepository, FolderRepository, ItemRepository, LabelRepository, NoteRepository, PlanLimitsRepository, ProductivityStatsService, ProjectInvitationsRepository, ProjectMembersRepository, ProjectRepository, SectionRepository, syncMigrations, UserProfileRepository, WorkspaceFilterRepository, WorkspaceMembersRepository, WorkspaceRepository } from '@doable/sync-domain';
import { CollaboratorSource, FolderSource, ItemSource, MembershipChangesRepository, ProjectSource, type ResourceSource, type SyncRead, SyncReader, WorkspaceFilterSource, WorkspaceSource, WorkspaceUserSource } from '@doable/sync-read';
import { givePlan } from '@doable/sync-domain/testing';
import { CommandExecutor } from '../src/command-executor';
import type { CommandStatus } from '../src/command-status';
import type { SyncCommand } from '../src/sync-request';
import type { CommandHandler } from '../src/command-handler';
import { commandHandlers } from './command-handlers.harness';

/** The repositories the workspace specs' commands are built from. */
export interface WorkspaceHarnessRepositories {
  readonly profiles: UserProfileRepository;
  readonly projects: ProjectRepository;
  readonly sections: SectionRepository;
  readonly items: ItemRepository;
  readonly members: ProjectMembersRepository;
  readonly invitations: ProjectInvitationsRepository;
  readonly workspaces: WorkspaceRepository;
  readonly workspaceMembers: WorkspaceMembersRepository;
  readonly folders: FolderRepository;
  readonly workspaceFilters: WorkspaceFilterRepository;
}

/** The resource types the harness reads (the workspace ones and the projects they hold). */
export const WORKSPACE_READ_TYPES = ['projects', 'items', 'collaborators', 'workspaces', 'workspace_users', 'folders', 'workspace_filters'];

/**
 * A real PostgreSQL database with the sync schema, users on a roomy plan, and an executor with
 * the project, task, sharing and workspace commands, and a reader of the workspace resources:
 * what the workspace specs share. Each spec gets its own database (`name`) and users.
 */
export class WorkspaceHarness {
  dataSource!: DataSource;
  executor!: CommandExecutor;
  reader!: SyncReader;
  readonly repositories: WorkspaceHarnessRepositories = {
    profiles: new UserProfileRepository(),
    projects: new ProjectRepository(),
    sections: new SectionRepository(),
    items: new ItemRepository(),
    members: new ProjectMembersRepository(),
    invitations: new ProjectInvitationsRepository(),
    workspaces: new WorkspaceRepository(),
    workspaceMembers: new WorkspaceMembersRepository(),
    folders: new FolderRepository(),
    workspaceFilters: new WorkspaceFilterRepository(),
  };
  private database!: TestDatabase;

  /**
   * `users`: id -> email; each gets a profile with an Inbox, on a roomy plan. `commands`: the
   * executor's handlers (every public command, as the service wires them, when not given).
   */
  async start(name: string, users: Readonly<Record<string, string>>, commands: (repositories: WorkspaceHarnessRepositories) => CommandHandler[] | Promise<CommandHandler[]> = () => commandHandlers()): Promise<void> {
    this.database = await createTestDatabase(name);
    this.dataSource = createServiceDataSource({ schema: 'sync', url: this.database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
    await this.dataSource.initialize();
    await migrateUp(this.dataSource);
    const r = this.repositories;
    for (const [id, email] of Object.entries(users)) {
      await this.dataSource.transaction((manager) =>
        r.profiles.createWithInbox(manager, { id, email, fullName: `User ${id}`, timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }),
      );
      await givePlan(this.dataSource.manager, id);
    }
    const logger = createLogger('test', 'silent');
    const db = new Database(this.dataSource, 'sync', new OutboxRelay(this.dataSource, 'sync', { publish: () => Promise.resolve() }, logger));
    this.executor = new CommandExecutor(db, r.profiles, await commands(r), logger, [], r.members, new PlanLimitsRepository(), r.workspaceMembers);
    const notes = new NoteRepository();
    const sources: ResourceSource[] = [
      new ProjectSource(r.projects),
      new ItemSource(r.items, notes),
      new CollaboratorSource(new CollaboratorRepository()),
      new WorkspaceSource(r.workspaces),
      new WorkspaceUserSource(r.workspaceMembers),
      new FolderSource(r.folders),
      new WorkspaceFilterSource(r.workspaceFilters),
    ];
    const noServices = { request: () => Promise.reject(new Error('no remote calls in these reads')) } as unknown as ServiceClient;
    this.reader = new SyncReader(
      db,
      r.profiles,
      sources,
      noServices,
      new ProductivityStatsService(new CompletionStatsRepository(), r.profiles),
      r.items,
      r.projects,
      new LabelRepository(),
      new MembershipChangesRepository(),
      new PlanLimitsRepository(),
    );
  }

  async stop(): Promise<void> {
    await this.dataSource.destroy();
    await this.database.drop();
  }

  /** A personal token's principal: every scope. */
  principal(userId: string): Principal {
    return { userId, scopes: [...SCOPES], appId: null, tokenKind: 'personal' };
  }

  /** Runs one command as the user; answers its status and the request's temp id mapping. */
  async run(userId: string, type: string, args: Record<string, unknown>, tempId?: string): Promise<{ status: CommandStatus; mapping: Record<string, string> }> {
    const uuid = randomUUID();
    const command: SyncCommand = { type, uuid, args, ...(tempId ? { temp_id: tempId } : {}) };
    const result = await this.executor.run(this.principal(userId), [command]);
    return { status: result.syncStatus[uuid], mapping: result.tempIdMapping };
  }

  async status(userId: string, type: string, args: Record<string, unknown>): Promise<CommandStatus> {
    return (await this.run(userId, type, args)).status;
  }

  /** Runs a creating command that must succeed; answers the new object's id. */
  async create(userId: string, type: string, args: Record<string, unknown>): Promise<string> {
    const tempId = `tmp-${randomUUID()}`;
    const { status, mapping } = await this.run(userId, type, args, tempId);
    if (status !== 'ok') throw new Error(`${type} refused: ${JSON.stringify(status)}`);
    return mapping[tempId];
  }

  /** A full read (`*`) or an incremental one (a token) of the workspace resources. */
  read(userId: string, syncToken = '*', types: readonly string[] = WORKSPACE_READ_TYPES): Promise<SyncRead> {
    return this.reader.read(userId, syncToken, types);
  }

  /** The payloads of an event's outbox records, oldest first. */
  async events<P>(subject: string): Promise<P[]> {
    return (await this.dataSource.query<Array<{ payload: P }>>(`SELECT payload FROM sync.outbox WHERE subject = $1 ORDER BY id`, [subject])).map((row) => row.payload);
  }

  /** Makes a user an active member of a workspace with a role, as an accepted invitation would (for specs of what comes after). */
  async addMember(workspaceId: string, userId: string, role: 'ADMIN' | 'MEMBER' | 'GUEST'): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const [{ version }] = await manager.query<Array<{ version: string }>>(`SELECT nextval('sync.change_version')::text AS version`);
      await this.repositories.workspaceMembers.addOrReactivate(manager, workspaceId, userId, role, version);
      await this.repositories.workspaces.touch(manager, workspaceId, version);
      await manager.query(
        `UPDATE sync.users SET high_water = GREATEST(high_water, $2)
          WHERE id IN (SELECT user_id FROM sync.workspace_members WHERE workspace_id = $1 AND state = 'active')`,
        [workspaceId, version],
      );
    });
  }
}
