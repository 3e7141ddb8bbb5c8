import type { TaskFilterService } from '@doable/sync-read';
import type { WireItem } from '@doable/sync-domain';
import type { EntityManager } from 'typeorm';
import { TaskFilterQuery } from './task-filter.query';

/** Rows are only told apart by id here; the query passes them through untouched. */
const row = (id: string) => ({ id }) as WireItem;

/** A TaskFilterService that answers the given lists, one array per comma list of the query. */
function queryAnswering(lists: WireItem[][]): TaskFilterQuery {
  const filters = { find: () => Promise.resolve(lists) } as unknown as TaskFilterService;
  return new TaskFilterQuery(filters);
}

const manager = {} as EntityManager;

describe('TaskFilterQuery', () => {
  it('answers one list as it came, in its order', async () => {
    const only = [row('3'), row('1'), row('2')];
    const { rows, hasMore } = await queryAnswering([only]).find(manager, '1', 'today', undefined, undefined);
    expect(rows.map((task) => task.id)).toEqual(['3', '1', '2']);
    expect(hasMore).toBe(false);
  });

  it('answers several lists as their union in list order, each task once', async () => {
    const { rows } = await queryAnswering([[row('1'), row('2')], [row('2'), row('3')], [row('1')]]).find(manager, '1', 'today, p1, #Work', undefined, undefined);
    expect(rows.map((task) => task.id)).toEqual(['1', '2', '3']);
  });

  it('pages the union, and says whether more follow', async () => {
    const query = queryAnswering([[row('1'), row('2')], [row('2'), row('3')]]);
    const first = await query.find(manager, '1', 'today, p1', undefined, { offset: 0, limit: 2 });
    const last = await query.find(manager, '1', 'today, p1', undefined, { offset: 2, limit: 2 });
    expect([first.rows.map((task) => task.id), first.hasMore]).toEqual([['1', '2'], true]);
    expect([last.rows.map((task) => task.id), last.hasMore]).toEqual([['3'], false]);
  });
});
