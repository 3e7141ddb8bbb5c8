import { EMPTY_DATA, mergeSync } from '../api/sync-merge';
import type { Item } from '../api/sync-types';
import { labelView, projectView, reorderSiblings, searchView, todayView, upcomingView } from './task-selectors';

const item = (id: string, extra: Partial<Item>): Item => ({ id, content: `task ${id}`, project_id: 'p1', priority: 1, ...extra });

const data = mergeSync(EMPTY_DATA, {
  full_sync: true,
  sections: [
    { id: 's2', name: 'Later', project_id: 'p1', section_order: 2 },
    { id: 's1', name: 'Next', project_id: 'p1', section_order: 1 },
  ],
  items: [
    item('1', { due: { date: '2026-11-20' }, priority: 1 }),
    item('2', { due: { date: '2026-11-27T09:00:00' }, priority: 4, labels: ['home'] }),
    item('3', { due: { date: '2026-11-27' }, checked: true }),
    item('4', { due: { date: '2026-11-29' }, section_id: 's1', content: 'Paint the fence' }),
    item('5', { parent_id: '4', section_id: 's1', content: 'Buy paint', labels: ['home'] }),
    item('6', { project_id: 'p2', due: { date: '2026-12-10' } }),
  ],
});

describe('task selectors', () => {
  it('Today lists open tasks due today by priority, and the overdue ones apart', () => {
    const view = todayView(data, '2026-11-27');
    expect(view.overdue.map((task) => task.id)).toEqual(['1']);
    expect(view.today.map((task) => task.id)).toEqual(['2']);
  });

  it('Upcoming has one entry per day, empty days included', () => {
    const days = upcomingView(data, '2026-11-27', 3);
    expect(days.map((day) => [day.day, day.tasks.map((task) => task.id)])).toEqual([
      ['2026-11-27', ['2']],
      ['2026-11-28', []],
      ['2026-11-29', ['4']],
    ]);
  });

  it('a project shows its sections in order with subtasks under their parents', () => {
    const view = projectView(data, 'p1');
    expect(view.unsectioned.map((node) => node.item.id)).toEqual(['1', '2']);
    expect(view.sections.map((section) => section.name)).toEqual(['Next', 'Later']);
    expect(view.sections[0]?.tasks.map((node) => [node.item.id, node.children.map((child) => child.item.id)])).toEqual([['4', ['5']]]);
  });

  it('labels and search find open tasks only', () => {
    expect(labelView(data, 'home').map((task) => task.id)).toEqual(['2', '5']);
    expect(searchView(data, 'PAINT').map((task) => task.id)).toEqual(['4', '5']);
    expect(searchView(data, 'buy paint').map((task) => task.id)).toEqual(['5']);
    expect(searchView(data, '  ')).toEqual([]);
  });

  it('moves a task one place among its siblings only (same project, section and parent)', () => {
    const first = data.items.get('1')!;
    expect(reorderSiblings(data, first, 1)).toEqual([
      { id: '2', child_order: 1 },
      { id: '1', child_order: 2 },
    ]);
    expect(reorderSiblings(data, first, -1)).toEqual([]);
    expect(reorderSiblings(data, data.items.get('5')!, 1)).toEqual([]);
  });
});
