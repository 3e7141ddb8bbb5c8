import { randomUUID } from 'node:crypto';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import type { DataSource } from 'typeorm';
import { PlanLimitsRepository, ProjectMembersRepository, syncMigrations, UserProfileRepository, WorkspaceMembersRepository } from '@doable/sync-domain';
import { givePlan } from '@doable/sync-domain/testing';
import { CommandExecutor } from '@doable/sync-engine';
import { commandHandlers } from '@doable/sync-engine/testing';

/**
 * What the mailed-invitation specs (a project's and a workspace's decline from the mail) stand
 * on: a migrated sync schema on a real PostgreSQL, the people who invite (each with an Inbox and
 * a plan), the real command executor, and reads of the outbox and of a user's high-water mark.
 */
export interface MailedInvitationsHarness {
  readonly dataSource: DataSource;
  readonly db: Database;
  readonly profiles: UserProfileRepository;
  /** Runs one command as `userId`; answers its status and the temp id mapping. */
  statusOf(userId: string, type: string, args: Record<string, unknown>, tempId?: string): Promise<{ status: unknown; mapping: Record<string, string> }>;
  /** The payloads the outbox holds under `subject`, oldest first. */
  events<P>(subject: string): Promise<P[]>;
  highWater(userId: string): Promise<bigint>;
  stop(): Promise<void>;
}

export async function startMailedInvitationsHarness(databaseName: string, people: Readonly<Record<string, { email: string; fullName: string }>>): Promise<MailedInvitationsHarness> {
  const database: TestDatabase = await createTestDatabase(databaseName);
  const dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
  await dataSource.initialize();
  await migrateUp(dataSource);
  const profiles = new UserProfileRepository();
  for (const [id, { email, fullName }] of Object.entries(people)) {
    await dataSource.transaction((manager) =>
      profiles.createWithInbox(manager, { id, email, fullName, timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: true, emailVerified: true }),
    );
    await givePlan(dataSource.manager, id);
  }
  const logger = createLogger('test', 'silent');
  const db = new Database(dataSource, 'sync', new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger));
  const executor = new CommandExecutor(db, profiles, await commandHandlers(), logger, [], new ProjectMembersRepository(), new PlanLimitsRepository(), new WorkspaceMembersRepository());
  return {
    dataSource,
    db,
    profiles,
    async statusOf(userId, type, args, tempId) {
      const uuid = randomUUID();
      const result = await executor.run({ userId, scopes: ['data:read_write', 'data:delete', 'project:delete'], appId: null, tokenKind: 'personal' }, [
        { type, uuid, args, ...(tempId ? { temp_id: tempId } : {}) },
      ]);
      return { status: result.syncStatus[uuid], mapping: result.tempIdMapping };
    },
    async events<P>(subject: string) {
      return (await dataSource.query<Array<{ payload: P }>>(`SELECT payload FROM sync.outbox WHERE subject = $1 ORDER BY id`, [subject])).map((row) => row.payload);
    },
    async highWater(userId) {
      return BigInt((await dataSource.query<Array<{ high_water: string }>>(`SELECT high_water::text FROM sync.users WHERE id = $1`, [userId]))[0].high_water);
    },
    async stop() {
      await dataSource.destroy();
      await database.drop();
    },
  };
}
