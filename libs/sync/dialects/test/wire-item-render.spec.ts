import type { Item, WireItem } from '@doable/sync-domain';
import { SYNC_DIALECTS } from '../src/sync-dialects';
import { errands, inbox, item, read } from '../testing/sync-read.fixture';
import { wireTimestamp } from '../src/shared/wire-format';

/**
 * A full sync reads its tasks with the timestamps formatted by PostgreSQL (ITEM_WIRE_COLUMNS,
 * ItemRepository.listActiveWire). Every generation must write them exactly as it writes the
 * Dates an incremental sync reads.
 */
describe('tasks with wire-text timestamps', () => {
  const tasks: Item[] = [
    item('7001', { added_at: new Date('2024-01-02T03:04:05.678Z'), updated_at: new Date('2024-02-29T23:59:59.999Z') }),
    item('7002', { project_id: errands.id, checked: true, completed_at: new Date('2024-03-31T01:00:00.029Z'), labels: ['Errand'] }),
    item('7003', { parent_id: '7001', child_order: 2, due: { date: '2024-05-07T09:00:00', timezone: null, string: 'tomorrow 9am', lang: 'en', is_recurring: false } }),
  ];
  const asWire = (task: Item): WireItem => ({
    ...task,
    added_at: wireTimestamp(task.added_at),
    completed_at: task.completed_at && wireTimestamp(task.completed_at),
    updated_at: wireTimestamp(task.updated_at),
  });
  const fullSync = (items: Item[] | WireItem[]) => ({
    read: { ...read(['projects', 'items']), rows: { projects: [inbox, errands], items }, context: { timezone: 'Europe/Berlin', projectTasks: items, projects: [inbox, errands], labels: [] } },
    tempIdMapping: {},
  });

  it.each(Object.keys(SYNC_DIALECTS) as Array<keyof typeof SYNC_DIALECTS>)('are written by %s exactly as Dates are', (name) => {
    const dialect = SYNC_DIALECTS[name];
    // v6 and older name the token `seq_no` (0: everything); the others ignore it.
    const request = dialect.parseRequest({ sync_token: '*', seq_no: 0, resource_types: '["projects","items"]' }, { userId: '42' });
    const fromDates = JSON.stringify(dialect.render(fullSync(tasks), request));
    expect(fromDates).toContain('7002');
    expect(JSON.stringify(dialect.render(fullSync(tasks.map(asWire)), request))).toBe(fromDates);
  });
});
