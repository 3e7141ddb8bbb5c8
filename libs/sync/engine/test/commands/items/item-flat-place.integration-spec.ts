import { commandHandlers } from '../../../testing/command-handlers.harness';
import { applyOrdersIndents, flattenTaskTree, placeNewTask, PlanLimitsRepository, ProjectMembersRepository, syncMigrations, type TreeTask, UserProfileRepository, WorkspaceMembersRepository } from '@doable/sync-domain';
import { randomUUID } from 'node:crypto';
import type { Principal } from '@doable/contracts-common';
import { createServiceDataSource, migrateUp, OutboxRelay } from '@doable/shared-database';
import { createLogger } from '@doable/shared-logging';
import { Database } from '@doable/shared-runtime';
import { createTestDatabase, type TestDatabase } from '@doable/shared-testing';
import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { CommandExecutor } from '../../../src/command-executor';
import type { SyncCommand } from '../../../src/sync-request';

const USER_ID = '7101';
const principal: Principal = { userId: USER_ID, scopes: ['data:read_write', 'data:delete'], appId: null, tokenKind: 'personal' };

/** A project's tasks as the flat list shows them: id -> [item_order, indent]. */
function flatOf(tasks: readonly TreeTask[]): Map<string, [number, number]> {
  return new Map([...flattenTaskTree(tasks)].map(([id, place]) => [id, [place.item_order, place.indent]]));
}

/**
 * The domain's flat-position commands against real PostgreSQL: whatever the stored tree and the
 * positions asked, the stored tree afterwards shows as the flat list the pure model
 * (items/task-tree-order) says, and a new task lands where placeNewTask puts it.
 */
describe('flat-position task commands (real PostgreSQL)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let executor: CommandExecutor;

  const run = async (...commands: Array<Omit<SyncCommand, 'uuid'>>) => executor.run(principal, commands.map((command) => ({ ...command, uuid: randomUUID() })));
  const stored = async (projectId: string): Promise<TreeTask[]> =>
    dataSource.query<TreeTask[]>(`SELECT id::text, parent_id::text, child_order FROM sync.items WHERE project_id = $1 AND NOT is_deleted AND NOT in_history`, [projectId]);

  /** A new project holding a forest built through the domain's item_add (parents first). */
  const forest = async (parents: readonly number[]): Promise<{ projectId: string; ids: string[] }> => {
    const [{ id: projectId }] = await dataSource.query<Array<{ id: string }>>(
      `WITH project AS (INSERT INTO sync.projects (owner_id, name, child_order, version) VALUES ($1, 'flat', 1, 1) RETURNING id)
       INSERT INTO sync.project_members (project_id, user_id) SELECT id, $1 FROM project RETURNING project_id::text AS id`,
      [USER_ID],
    );
    const commands = parents.map((pick, index) => ({
      type: 'item_add',
      temp_id: `t${index}`,
      // Each task under an earlier one, or at the top: at most four levels as old clients drew.
      args: { content: `task ${index}`, project_id: projectId, ...(index > 0 && pick % 3 !== 0 ? { parent_id: `t${pick % index}` } : {}) },
    }));
    const result = await run(...commands);
    return { projectId, ids: parents.map((_, index) => result.tempIdMapping[`t${index}`]) };
  };
  const shallow = (parents: readonly number[]) => parents.map((pick, index) => (index > 0 && pick % 3 !== 0 ? pick % index : -1));
  const depthOk = (parents: readonly number[]) => {
    const up = shallow(parents);
    const depth = (index: number): number => (up[index] === -1 ? 1 : 1 + depth(up[index]));
    return up.every((_, index) => depth(index) <= 4);
  };
  const trees = fc.array(fc.nat(50), { minLength: 1, maxLength: 8 }).filter(depthOk);

  beforeAll(async () => {
    database = await createTestDatabase('flat_place');
    dataSource = createServiceDataSource({ schema: 'sync', url: database.url, poolSize: 4, applicationName: 'test', migrations: syncMigrations });
    await dataSource.initialize();
    await migrateUp(dataSource);
    const profiles = new UserProfileRepository();
    await dataSource.transaction((manager) =>
      profiles.createWithInbox(manager, { id: USER_ID, email: 'flat@test', fullName: 'Flat', timezone: 'UTC', lang: 'en', joinedAt: new Date().toISOString(), hasPassword: false, emailVerified: true }),
    );
    const logger = createLogger('test', 'silent');
    const relay = new OutboxRelay(dataSource, 'sync', { publish: () => Promise.resolve() }, logger);
    const handlers = await commandHandlers();
    executor = new CommandExecutor(new Database(dataSource, 'sync', relay), profiles, handlers, logger, [], new ProjectMembersRepository(), new PlanLimitsRepository(), new WorkspaceMembersRepository());
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('item_update_orders_indents leaves the tree the model says', async () => {
    await fc.assert(
      fc.asyncProperty(trees, fc.array(fc.tuple(fc.nat(10), fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 5 })), { minLength: 1, maxLength: 4 }), async (parents, moves) => {
        const { projectId, ids } = await forest(parents);
        const before = await stored(projectId);
        const wanted = new Map(moves.map(([pick, order, indent]) => [ids[pick % ids.length], [order, indent] as [number, number]]));
        const result = await run({ type: 'item_update_orders_indents', args: { ids_to_orders_indents: Object.fromEntries(wanted) } });
        expect(Object.values(result.syncStatus)).toEqual(['ok']);
        // The model: the stored tree re-placed, the untouched groups as they were.
        const changes = new Map(applyOrdersIndents(before, wanted).map((place) => [place.id, place]));
        const expected = before.map((task) => ({ ...task, ...changes.get(task.id) }));
        expect(flatOf(await stored(projectId))).toEqual(flatOf(expected));
      }),
      { numRuns: 15 },
    );
  });

  it('item_add_flat puts the new task where placeNewTask says, moving no other row of the list', async () => {
    await fc.assert(
      fc.asyncProperty(trees, fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 5 }), async (parents, order, indent) => {
        const { projectId } = await forest(parents);
        const before = await stored(projectId);
        const placement = placeNewTask(before, { item_order: order, indent }, 'new');
        const result = await run({ type: 'item_add_flat', temp_id: 'n', args: { content: 'flat', project_id: projectId, item_order: order, indent } });
        const id = result.tempIdMapping['n'];
        expect(id).toBeDefined();
        const after = await stored(projectId);
        const added = after.find((task) => task.id === id)!;
        expect(added.parent_id).toBe(placement.parent_id);
        // Every row keeps its order relative to the others; the new one sits at the place asked.
        const flat = flatOf(after);
        const was = [...flatOf(before)].sort((a, b) => a[1][0] - b[1][0]).map(([task]) => task);
        const now = [...flat].sort((a, b) => a[1][0] - b[1][0]).map(([task]) => task);
        expect(now.filter((task) => task !== id)).toEqual(was);
        expect(flat.get(id)![0]).toBe(Math.max(1, Math.min(order, before.length + 1)));
      }),
      { numRuns: 15 },
    );
  });

  it('item_update_flat changes the fields and moves the task by indent, in one command', async () => {
    const { projectId, ids } = await forest([0, 0]);
    const result = await run({ type: 'item_update_flat', args: { id: ids[1], content: 'renamed', indent: 2 } });
    expect(Object.values(result.syncStatus)).toEqual(['ok']);
    const [row] = await dataSource.query<Array<{ content: string; parent_id: string | null }>>(`SELECT content, parent_id::text FROM sync.items WHERE id = $1`, [ids[1]]);
    expect(row).toEqual({ content: 'renamed', parent_id: ids[0] });
    expect(flatOf(await stored(projectId)).get(ids[1])).toEqual([2, 2]);
  });
});
