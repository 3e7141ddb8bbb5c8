import { EMPTY_DATA, mergeSync } from '../api/sync-merge';
import type { Item } from '../api/sync-types';
import { canReorder, dropMoveArgs, dropOrder } from './drag-order';

const item = (id: string, child_order: number, extra: Partial<Item> = {}): Item => ({ id, content: `task ${id}`, project_id: 'p1', priority: 1, child_order, ...extra });

const data = mergeSync(EMPTY_DATA, {
  full_sync: true,
  projects: [
    { id: 'p1', name: 'Home' },
    { id: 'p2', name: 'Work' },
  ],
  items: [item('a', 1), item('b', 2), item('c', 3), item('d', 4, { checked: true }), item('e', 1, { parent_id: 'a' }), item('f', 1, { section_id: 's1' })],
});

const ids = (order: { id: string; child_order: number }[]) => order.map((entry) => `${entry.id}${entry.child_order}`);

describe('drag to reorder and to move', () => {
  it('renumbers the siblings with the dragged task before or after the target', () => {
    expect(ids(dropOrder(data, 'c', 'a', 'before'))).toEqual(['c1', 'a2', 'b3']);
    expect(ids(dropOrder(data, 'a', 'c', 'after'))).toEqual(['b1', 'c2', 'a3']);
    expect(ids(dropOrder(data, 'a', 'c', 'before'))).toEqual(['b1', 'a2', 'c3']);
  });

  it('sends nothing for a drop that changes nothing', () => {
    expect(dropOrder(data, 'a', 'b', 'before')).toEqual([]);
    expect(dropOrder(data, 'b', 'a', 'after')).toEqual([]);
    expect(dropOrder(data, 'a', 'a', 'after')).toEqual([]);
  });

  it('reorders only among siblings (same project, section and parent)', () => {
    const get = (id: string) => data.items.get(id) as Item;
    expect(canReorder(get('a'), get('b'))).toBe(true);
    expect(canReorder(get('e'), get('b'))).toBe(false);
    expect(canReorder(get('f'), get('b'))).toBe(false);
    expect(dropOrder(data, 'e', 'b', 'before')).toEqual([]);
  });

  it('moves a task dropped on another project, and not onto its own or an unknown one', () => {
    expect(dropMoveArgs(data, 'a', 'p2')).toEqual({ id: 'a', project_id: 'p2' });
    expect(dropMoveArgs(data, 'a', 'p1')).toBeNull();
    expect(dropMoveArgs(data, 'a', 'p9')).toBeNull();
    expect(dropMoveArgs(data, 'zz', 'p2')).toBeNull();
  });
});
