import { commandHandlers } from './command-handlers.harness';
import { randomUUID } from 'node:crypto';
import type { PlanInfo } from '@doable/contracts-plans';
import type { Principal } from '@doable/contracts-common';
import type { ShareInvitationSent } from '@doable/contracts-sync';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { LabelRepository, PlanLimitsRepository, ProjectMembersRepository, ProjectRepository, SectionRepository, syncMigrations, UserProfileRepository, WorkspaceMembersRepository } from '@doable/sync-domain';
import { givePlan } from '@doable/sync-domain/testing';
import { CommandExecutor } from '../src/command-executor';
import type { CommandHandler, EventObjectWriter } from '../src/command-handler';
import type { CommandStatus } from '../src/command-status';
import { ItemQuickAddCommand, QUICK_ADD_COMMAND } from '../src/commands/items/item-quick-add.command';

export interface HarnessCommand {
  readonly type: string;
  readonly args: Record<string, unknown>;
  readonly temp_id?: string;
  /** Given only to send the same command again (a replay); otherwise a new one. */
  readonly uuid?: string;
}

/**
 * The plan-limit specs' test bed: a real command executor (the task, project, section, label,
 * filter, comment, reminder, sharing and quick add commands) over a fresh database, users on
 * chosen plans, and the few reads the specs assert with. Nothing in it is mocked.
 */
export class PlanLimitsHarness {
  private constructor(
    private readonly database: TestDatabase,
    readonly dataSource: DataSource,
    readonly executor: CommandExecutor,
    private readonly profiles: UserProfileRepository,
  ) {}

  /**
   * `writeEventObject`: how the objects events carry are rendered (the service gives the api/v1
   * writers). `extraHandlers`: commands a spec adds beside the real ones, to reach an executor
   * path no real command takes today (a command refused after it recorded its events).
   */
  static async start(label: string, writeEventObject?: EventObjectWriter, extraHandlers: readonly CommandHandler[] = []): Promise<PlanLimitsHarness> {
    const database = await createTestDatabase(label);
    // Enough connections for the concurrency tests' requests to overlap.
    const dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 12, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const logger = createLogger('test', 'silent');
    const db = new Database(dataSource, 'sync', new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger));
    const [projects, sections, labels, members, profiles] = [
      new ProjectRepository(),
      new SectionRepository(),
      new LabelRepository(),
      new ProjectMembersRepository(),
      new UserProfileRepository(),
    ];
    const handlers = [...(await commandHandlers()), ...extraHandlers];
    const quickAdd = new ItemQuickAddCommand(handlers, projects, sections, labels);
    const executor = new CommandExecutor(db, profiles, handlers, logger, [quickAdd], members, new PlanLimitsRepository(), new WorkspaceMembersRepository(), writeEventObject);
    return new PlanLimitsHarness(database, dataSource, executor, profiles);
  }

  async stop(): Promise<void> {
    await this.dataSource.destroy();
    await this.database.drop();
  }

  /** A user with an Inbox, on a roomy plan changed by `plan` (or on no stored plan: the built-in free one). Answers the Inbox's id. */
  async user(id: string, plan: Partial<PlanInfo> | 'builtin' = {}): Promise<string> {
    await this.dataSource.transaction((manager) =>
      this.profiles.createWithInbox(manager, { id, email: emailOf(id), fullName: `User ${id}`, timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }),
    );
    if (plan !== 'builtin') await this.plan(id, plan);
    const [row] = await this.dataSource.query<Array<{ id: string }>>(`SELECT inbox_project_id::text AS id FROM sync.users WHERE id = $1`, [id]);
    return row.id;
  }

  /** Puts the user on a roomy plan changed by `overrides` (givePlan), replacing the one they had. */
  async plan(userId: string, overrides: Partial<PlanInfo> = {}): Promise<void> {
    await givePlan(this.dataSource.manager, userId, overrides);
  }

  /** The user's commands in one request: each one's status, and the temp id mapping. */
  async send(userId: string, commands: readonly HarnessCommand[]): Promise<{ statuses: CommandStatus[]; ids: Record<string, string> }> {
    const withUuids = commands.map((command) => ({ ...command, uuid: command.uuid ?? randomUUID() }));
    const results = await this.executor.run(principalOf(userId), withUuids);
    return { statuses: withUuids.map((command) => results.syncStatus[command.uuid]), ids: results.tempIdMapping };
  }

  /** One command in its own request: its status, and the id it created. */
  async one(userId: string, type: string, args: Record<string, unknown>): Promise<{ status: CommandStatus; id: string | undefined }> {
    const { statuses, ids } = await this.send(userId, [{ type, args, temp_id: 'created' }]);
    return { status: statuses[0], id: ids['created'] };
  }

  /** One command that must succeed; answers the id it created. */
  async made(userId: string, type: string, args: Record<string, unknown>): Promise<string> {
    const { status, id } = await this.one(userId, type, args);
    if (status !== 'ok' || id === undefined) throw new Error(`${type} was refused: ${JSON.stringify(status)}`);
    return id;
  }

  /** A quick add line, as the quick add endpoint runs it (CommandExecutor.runInternal): its status, and the task it created. */
  async quickAdd(userId: string, text: string): Promise<{ status: CommandStatus; id: string | undefined }> {
    const uuid = randomUUID();
    const results = await this.executor.runInternal(principalOf(userId), { type: QUICK_ADD_COMMAND, uuid, temp_id: 'created', args: { text } });
    return { status: results.syncStatus[uuid], id: results.tempIdMapping['created'] };
  }

  /** Makes the user a member of the owner's project through an invitation they accept; answers the accept's status. */
  async join(ownerId: string, projectId: string, userId: string, role = 'READ_WRITE'): Promise<CommandStatus> {
    const { status } = await this.one(ownerId, 'share_project', { project_id: projectId, email: emailOf(userId), role });
    if (status !== 'ok') throw new Error(`share_project was refused: ${JSON.stringify(status)}`);
    const sent = (await this.events<ShareInvitationSent>('sync.evt.share-invitation-sent.v1')).at(-1)!;
    return (await this.one(userId, 'accept_invitation', { invitation_id: sent.invitationId, invitation_secret: sent.invitationSecret })).status;
  }

  /** Open tasks of a project (not completed, not deleted). */
  async openTasks(projectId: string): Promise<number> {
    return this.count(`sync.items WHERE project_id = $1 AND NOT checked AND NOT is_deleted`, [projectId]);
  }

  /** The rows of `from`: a table and, as the specs need, its WHERE clause (`sync.labels WHERE user_id = $1`). */
  async count(from: string, params: unknown[] = []): Promise<number> {
    const [{ n }] = await this.dataSource.query<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM ${from}`, params);
    return n;
  }

  /** The payloads of the events the outbox holds under `subject`, oldest first. */
  async events<P>(subject: string): Promise<P[]> {
    const rows = await this.dataSource.query<Array<{ payload: P }>>(`SELECT payload FROM sync.outbox WHERE subject = $1 ORDER BY id`, [subject]);
    return rows.map((row) => row.payload);
  }

  /**
   * Everything a command could have written, as rows and versions of the synced tables, the
   * memberships, the invitations and the outbox: equal before and after a refusal.
   */
  async written(): Promise<unknown> {
    return this.dataSource.query(
      `SELECT (SELECT count(*) || ':' || coalesce(max(version), 0) FROM sync.items) AS items,
              (SELECT count(*) || ':' || coalesce(max(version), 0) FROM sync.sections) AS sections,
              (SELECT count(*) || ':' || coalesce(max(version), 0) FROM sync.projects) AS projects,
              (SELECT count(*) || ':' || coalesce(max(version), 0) FROM sync.project_members) AS members,
              (SELECT count(*) || ':' || coalesce(max(version), 0) FROM sync.project_invitations) AS invitations,
              (SELECT count(*) FROM sync.outbox) AS outbox`,
    );
  }
}

/** The email the harness gives a user: what a share_project addressed to them names. */
export function emailOf(userId: string): string {
  return `${userId}@limits.test`;
}

export function principalOf(userId: string): Principal {
  return { userId, scopes: ['data:read_write', 'data:delete', 'project:delete'], appId: null, tokenKind: 'personal' };
}
