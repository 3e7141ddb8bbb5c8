import { giveWorkspacePlan } from '@doable/sync-domain/testing';
import type { WorkspaceFilterRow } from '@doable/sync-domain';
import { WorkspaceHarness } from '../../../testing/workspace.harness';

const ADA = '7401';
const BEN = '7402';
const CY = '7403';
const DEE = '7404';
const USERS = { [ADA]: 'ada@wf.test', [BEN]: 'ben@wf.test', [CY]: 'cy@wf.test', [DEE]: 'dee@wf.test' };

describe('workspace filter commands and their reads (real PostgreSQL)', () => {
  const harness = new WorkspaceHarness();
  const filterIn = (rows: WorkspaceFilterRow[] | undefined, id: string) => rows?.find((row) => row.id === id);
  let workspaceId: string;

  beforeAll(async () => {
    await harness.start('workspace_filters', USERS);
    workspaceId = await harness.create(ADA, 'workspace_add', { name: 'Filters' });
    await giveWorkspacePlan(harness.dataSource.manager, workspaceId, 'BUSINESS');
    await harness.addMember(workspaceId, BEN, 'MEMBER');
    await harness.addMember(workspaceId, CY, 'GUEST');
  });
  afterAll(() => harness.stop());

  it('workspace_filter_add: a member adds a filter every member sees in a full sync, with its creator; outsiders see nothing', async () => {
    const id = await harness.create(BEN, 'workspace_filter_add', { workspace_id: workspaceId, name: 'Team urgent', query: 'p1 & #Team', color: 31, is_favorite: true });
    const expected = { workspace_id: workspaceId, name: 'Team urgent', query: 'p1 & #Team', color: 'red', is_favorite: true, description: null, creator_id: BEN, updater_id: BEN, is_deleted: false };
    expect(filterIn((await harness.read(ADA)).rows.workspace_filters, id)).toMatchObject(expected);
    expect(filterIn((await harness.read(BEN)).rows.workspace_filters, id)).toMatchObject(expected);
    // A guest is a member: it reads the workspace's filters, it does not write them.
    expect(filterIn((await harness.read(CY)).rows.workspace_filters, id)).toMatchObject(expected);
    expect((await harness.read(DEE)).rows.workspace_filters).toEqual([]);
  });

  it('places a new filter after the workspace last one unless an order is given', async () => {
    const first = await harness.create(ADA, 'workspace_filter_add', { workspace_id: workspaceId, name: 'One', query: 'today' });
    const second = await harness.create(ADA, 'workspace_filter_add', { workspace_id: workspaceId, name: 'Two', query: 'today' });
    const placed = await harness.create(ADA, 'workspace_filter_add', { workspace_id: workspaceId, name: 'Placed', query: 'today', item_order: 0 });
    const rows = (await harness.read(ADA)).rows.workspace_filters;
    expect(filterIn(rows, second)!.item_order).toBe(filterIn(rows, first)!.item_order + 1);
    expect(filterIn(rows, placed)!.item_order).toBe(0);
  });

  it('a workspace_add and a workspace_filter_add in one request: the filter names the workspace by its temp id', async () => {
    const result = await harness.executor.run(harness.principal(ADA), [
      { type: 'workspace_add', uuid: 'u1', temp_id: 'ws-tmp', args: { name: 'Fresh' } },
      { type: 'workspace_filter_add', uuid: 'u2', temp_id: 'wf-tmp', args: { workspace_id: 'ws-tmp', name: 'Fresh filter', query: 'today' } },
    ]);
    expect(result.syncStatus).toEqual({ u1: 'ok', u2: 'ok' });
    expect(filterIn((await harness.read(ADA)).rows.workspace_filters, result.tempIdMapping['wf-tmp'])).toMatchObject({ workspace_id: result.tempIdMapping['ws-tmp'] });
  });

  it('refuses guests (FORBIDDEN), outsiders (not found) and bad arguments', async () => {
    const id = await harness.create(ADA, 'workspace_filter_add', { workspace_id: workspaceId, name: 'Guarded', query: 'today' });
    expect(await harness.status(CY, 'workspace_filter_add', { workspace_id: workspaceId, name: 'x', query: 'today' })).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
    expect(await harness.status(CY, 'workspace_filter_update', { id, name: 'x' })).toMatchObject({ error_tag: 'FORBIDDEN', http_code: 403 });
    expect(await harness.status(CY, 'workspace_filter_delete', { id })).toMatchObject({ error_tag: 'FORBIDDEN' });
    expect(await harness.status(DEE, 'workspace_filter_add', { workspace_id: workspaceId, name: 'x', query: 'today' })).toMatchObject({ error_tag: 'WORKSPACE_NOT_FOUND', http_code: 404 });
    expect(await harness.status(DEE, 'workspace_filter_update', { id, name: 'x' })).toMatchObject({ error_tag: 'WORKSPACE_FILTER_NOT_FOUND', http_code: 404 });
    expect(await harness.status(DEE, 'workspace_filter_delete', { id })).toMatchObject({ error_tag: 'WORKSPACE_FILTER_NOT_FOUND' });
    expect(await harness.status(ADA, 'workspace_filter_update', { id: '9299999999', name: 'x' })).toMatchObject({ error_tag: 'WORKSPACE_FILTER_NOT_FOUND' });
    expect(await harness.status(ADA, 'workspace_filter_add', { name: 'x', query: 'today' })).toMatchObject({ error_tag: 'ARGUMENT_MISSING', http_code: 400 });
    expect(await harness.status(ADA, 'workspace_filter_add', { workspace_id: workspaceId, name: ' ', query: 'today' })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
    expect(await harness.status(ADA, 'workspace_filter_add', { workspace_id: workspaceId, name: 'x', query: 'today', color: 'mauve' })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
    expect(await harness.status(ADA, 'workspace_filter_update', { id, query: '' })).toMatchObject({ error_tag: 'INVALID_ARGUMENT_VALUE' });
  });

  it('workspace_filter_update and _delete: any contributing member, recorded as updater; members see it incrementally', async () => {
    const id = await harness.create(ADA, 'workspace_filter_add', { workspace_id: workspaceId, name: 'Shared', query: 'today' });
    const adaToken = (await harness.read(ADA)).syncToken;
    const cyToken = (await harness.read(CY)).syncToken;
    expect(await harness.status(BEN, 'workspace_filter_update', { id, name: 'Shared, renamed', description: 'ours', color: 'blue' })).toBe('ok');

    const ada = await harness.read(ADA, adaToken);
    expect(ada.rows.workspace_filters?.map((row) => row.id)).toEqual([id]);
    expect(filterIn(ada.rows.workspace_filters, id)).toMatchObject({ name: 'Shared, renamed', description: 'ours', color: 'blue', query: 'today', creator_id: ADA, updater_id: BEN });

    expect(await harness.status(BEN, 'workspace_filter_delete', { id })).toBe('ok');
    expect(filterIn((await harness.read(CY, cyToken)).rows.workspace_filters, id)).toMatchObject({ is_deleted: true });
    expect(filterIn((await harness.read(ADA)).rows.workspace_filters, id)).toBeUndefined();
    expect(await harness.status(ADA, 'workspace_filter_update', { id, name: 'back' })).toMatchObject({ error_tag: 'WORKSPACE_FILTER_NOT_FOUND' });
  });

  it('workspace_filter_update_orders: each filter on its own, a refused id leaves the others applied', async () => {
    const a = await harness.create(ADA, 'workspace_filter_add', { workspace_id: workspaceId, name: 'A', query: 'today' });
    const b = await harness.create(ADA, 'workspace_filter_add', { workspace_id: workspaceId, name: 'B', query: 'today' });
    const otherWorkspace = await harness.create(DEE, 'workspace_add', { name: 'Dee only' });
    const hidden = await harness.create(DEE, 'workspace_filter_add', { workspace_id: otherWorkspace, name: 'Hidden', query: 'today' });
    const benToken = (await harness.read(BEN)).syncToken;

    const status = await harness.status(BEN, 'workspace_filter_update_orders', { id_order_mapping: { [a]: 20, [b]: 10, [hidden]: 1 } });
    expect(status).toMatchObject({ [hidden]: { error_tag: 'WORKSPACE_FILTER_NOT_FOUND' } });
    const read = await harness.read(BEN, benToken);
    expect(filterIn(read.rows.workspace_filters, a)).toMatchObject({ item_order: 20, updater_id: BEN });
    expect(filterIn(read.rows.workspace_filters, b)).toMatchObject({ item_order: 10 });
    expect(filterIn(read.rows.workspace_filters, hidden)).toBeUndefined();
    expect(filterIn((await harness.read(DEE)).rows.workspace_filters, hidden)).toMatchObject({ item_order: 1 });
  });

  it('the workspace plan caps its filters (max_workspace_filters, at its boundary) and must include workspace_filters', async () => {
    const capped = await harness.create(ADA, 'workspace_add', { name: 'Capped' });
    await harness.addMember(capped, BEN, 'MEMBER');
    await giveWorkspacePlan(harness.dataSource.manager, capped, 'STARTER', { max_workspace_filters: 2 });
    await harness.create(ADA, 'workspace_filter_add', { workspace_id: capped, name: '1', query: 'today' });
    const second = await harness.create(BEN, 'workspace_filter_add', { workspace_id: capped, name: '2', query: 'today' });
    expect(await harness.status(BEN, 'workspace_filter_add', { workspace_id: capped, name: '3', query: 'today' })).toMatchObject({
      error_tag: 'MAX_WORKSPACE_FILTERS_LIMIT_REACHED',
      http_code: 403,
      error_extra: { limit: 'max_workspace_filters', max_count: 2, workspace_id: capped },
    });
    // A deleted filter makes room again.
    expect(await harness.status(ADA, 'workspace_filter_delete', { id: second })).toBe('ok');
    expect(await harness.status(BEN, 'workspace_filter_add', { workspace_id: capped, name: '3', query: 'today' })).toBe('ok');

    await giveWorkspacePlan(harness.dataSource.manager, capped, 'STARTER', { workspace_filters: false });
    expect(await harness.status(ADA, 'workspace_filter_add', { workspace_id: capped, name: '4', query: 'today' })).toMatchObject({
      error_tag: 'PREMIUM_ONLY',
      http_code: 403,
      error_extra: { feature: 'workspace_filters', workspace_id: capped },
    });
  });

  it('members who join see the workspace filters whole; those who leave get their tombstones', async () => {
    const id = await harness.create(ADA, 'workspace_filter_add', { workspace_id: workspaceId, name: 'For newcomers', query: 'today' });
    const deeToken = (await harness.read(DEE)).syncToken;
    await harness.addMember(workspaceId, DEE, 'MEMBER');
    const joined = await harness.read(DEE, deeToken);
    expect(filterIn(joined.rows.workspace_filters, id)).toMatchObject({ is_deleted: false, name: 'For newcomers' });

    expect(await harness.status(DEE, 'workspace_leave', { id: workspaceId })).toBe('ok');
    expect(filterIn((await harness.read(DEE, joined.syncToken)).rows.workspace_filters, id)).toMatchObject({ is_deleted: true });
  });
});
