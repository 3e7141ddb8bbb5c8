import fc from 'fast-check';
import { applyOrdersIndents, clampIndent, flattenTaskTree, MAX_INDENT, placeNewTask, type TreePlace, type TreeTask, treeFromFlatRows } from './task-tree-order';

/** A project's tasks as the domain could hold them: parents earlier in the list, at most four levels, gaps in child_order. */
const tree = fc
  .array(fc.record({ parentPick: fc.nat(), rooted: fc.boolean(), order: fc.integer({ min: 1, max: 50 }) }), { maxLength: 25 })
  .map((specs) => {
    const tasks: TreeTask[] = [];
    const depth = new Map<string, number>();
    specs.forEach((spec, index) => {
      const id = String(9_000_000_001 + index);
      const candidates = tasks.filter((task) => depth.get(task.id)! < MAX_INDENT - 1);
      const parent = spec.rooted || candidates.length === 0 ? null : candidates[spec.parentPick % candidates.length];
      depth.set(id, parent === null ? 0 : depth.get(parent.id)! + 1);
      tasks.push({ id, parent_id: parent?.id ?? null, child_order: spec.order });
    });
    return { tasks, depth };
  });

/** Siblings in order, per parent: the tree's shape without its child_order numbers. */
function shape(tasks: readonly (TreeTask | TreePlace)[]): Map<string | null, string[]> {
  const groups = new Map<string | null, Array<TreeTask | TreePlace>>();
  for (const task of tasks) groups.set(task.parent_id, [...(groups.get(task.parent_id) ?? []), task]);
  return new Map([...groups].map(([parent, list]) => [parent, list.sort((a, b) => a.child_order - b.child_order || a.id.length - b.id.length || (a.id < b.id ? -1 : 1)).map((task) => task.id)]));
}

/** The tree with `changes` applied, as a dialect's item_move/item_reorder would leave it. */
function applied(tasks: readonly TreeTask[], changes: readonly TreePlace[]): TreeTask[] {
  const byId = new Map(changes.map((change) => [change.id, change]));
  return tasks.map((task) => byId.get(task.id) ?? task);
}

describe('flattenTaskTree', () => {
  it('numbers a tree depth first, siblings by child_order', () => {
    const tasks: TreeTask[] = [
      { id: '10', parent_id: null, child_order: 2 },
      { id: '11', parent_id: null, child_order: 1 },
      { id: '12', parent_id: '11', child_order: 5 },
      { id: '13', parent_id: '11', child_order: 3 },
      { id: '14', parent_id: '13', child_order: 1 },
    ];
    expect(Object.fromEntries(flattenTaskTree(tasks))).toEqual({
      '11': { item_order: 1, indent: 1 },
      '13': { item_order: 2, indent: 2 },
      '14': { item_order: 3, indent: 3 },
      '12': { item_order: 4, indent: 2 },
      '10': { item_order: 5, indent: 1 },
    });
  });

  it('shows a task whose parent is not listed at the top level, and caps indents at 4', () => {
    const chain: TreeTask[] = ['1', '2', '3', '4', '5'].map((id, index) => ({ id, parent_id: index === 0 ? null : String(index), child_order: 1 }));
    const places = flattenTaskTree([...chain, { id: '9', parent_id: '77', child_order: 1 }]);
    expect(places.get('5')).toEqual({ item_order: 5, indent: 4 });
    expect(places.get('9')).toEqual({ item_order: 6, indent: 1 });
  });

  it('lists every task once even when parents form a cycle', () => {
    const places = flattenTaskTree([
      { id: '1', parent_id: '2', child_order: 1 },
      { id: '2', parent_id: '1', child_order: 1 },
    ]);
    expect([...places.values()].map((place) => place.item_order).sort()).toEqual([1, 2]);
  });

  it('gives positions 1..n and indent 1 + depth (property)', () => {
    fc.assert(
      fc.property(tree, ({ tasks, depth }) => {
        const places = flattenTaskTree(tasks);
        expect([...places.values()].map((place) => place.item_order).sort((a, b) => a - b)).toEqual(tasks.map((_, index) => index + 1));
        for (const task of tasks) expect(places.get(task.id)!.indent).toBe(depth.get(task.id)! + 1);
      }),
    );
  });
});

describe('treeFromFlatRows', () => {
  it('round-trips a tree through the flat list (property)', () => {
    fc.assert(
      fc.property(tree, ({ tasks }) => {
        const flat = flattenTaskTree(tasks);
        const back = treeFromFlatRows(tasks.map((task) => ({ id: task.id, ...flat.get(task.id)! })));
        expect(shape(back)).toEqual(shape(tasks));
        // child_order comes back 1-based and dense within each group.
        for (const ids of shape(back).values()) expect(ids.map((id) => back.find((place) => place.id === id)!.child_order)).toEqual(ids.map((_, index) => index + 1));
      }),
    );
  });

  it('round-trips any flat list, its indents clamped (property)', () => {
    const rows = fc.uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 10_000 }).map(String), item_order: fc.integer({ min: -5, max: 100 }), indent: fc.integer({ min: -2, max: 9 }) }), {
      selector: (row) => row.id,
      maxLength: 25,
    });
    fc.assert(
      fc.property(rows, (list) => {
        const places = flattenTaskTree(treeFromFlatRows(list));
        const sorted = [...list].sort((a, b) => a.item_order - b.item_order || a.id.length - b.id.length || (a.id < b.id ? -1 : 1));
        let previous = 0;
        sorted.forEach((row, index) => {
          const indent = clampIndent(row.indent, previous);
          expect(places.get(row.id)).toEqual({ item_order: index + 1, indent });
          previous = indent;
        });
      }),
    );
  });

  it('clamps an indent deeper than the row above it + 1, and the first row to the top level', () => {
    expect(
      treeFromFlatRows([
        { id: '1', item_order: 1, indent: 3 },
        { id: '2', item_order: 2, indent: 4 },
        { id: '3', item_order: 3, indent: 1 },
      ]),
    ).toEqual([
      { id: '1', parent_id: null, child_order: 1 },
      { id: '2', parent_id: '1', child_order: 1 },
      { id: '3', parent_id: null, child_order: 2 },
    ]);
  });
});

describe('applyOrdersIndents', () => {
  const tasks: TreeTask[] = [
    { id: '1', parent_id: null, child_order: 1 },
    { id: '2', parent_id: null, child_order: 2 },
    { id: '3', parent_id: null, child_order: 3 },
  ];

  it('indents a task under the row above it and renumbers the groups it touched', () => {
    expect(applyOrdersIndents(tasks, new Map([['2', [2, 2] as const]]))).toEqual([
      { id: '1', parent_id: null, child_order: 1 },
      { id: '2', parent_id: '1', child_order: 1 },
      { id: '3', parent_id: null, child_order: 2 },
    ]);
  });

  it('changes nothing when every task keeps its place (property)', () => {
    fc.assert(
      fc.property(tree, ({ tasks: generated }) => {
        const flat = flattenTaskTree(generated);
        expect(applyOrdersIndents(generated, new Map())).toEqual([]);
        expect(applyOrdersIndents(generated, new Map(generated.map((task) => [task.id, [flat.get(task.id)!.item_order, flat.get(task.id)!.indent] as const])))).toEqual([]);
      }),
    );
  });

  it('puts the given rows where the client asked (property)', () => {
    fc.assert(
      fc.property(tree, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 4 })), { maxLength: 5 }), ({ tasks: generated }, picks) => {
        fc.pre(generated.length > 0);
        const wanted = new Map(picks.map(([pick, order, indent]) => [generated[pick % generated.length].id, [order, indent] as const]));
        const after = flattenTaskTree(applied(generated, applyOrdersIndents(generated, wanted)));
        // Every task is still listed once, and the given rows are in the order the client gave.
        expect(after.size).toBe(generated.length);
        const before = flattenTaskTree(generated);
        // Equal orders keep the order the rows had before.
        const given = [...wanted].sort((a, b) => a[1][0] - b[1][0] || before.get(a[0])!.item_order - before.get(b[0])!.item_order).map(([id]) => after.get(id)!.item_order);
        expect(given).toEqual([...given].sort((a, b) => a - b));
      }),
    );
  });
});

describe('placeNewTask', () => {
  it('appends at the top level when no place is given', () => {
    expect(placeNewTask([{ id: '1', parent_id: null, child_order: 7 }], {}, 'new')).toEqual({ parent_id: null, child_order: 2, changes: [{ id: '1', parent_id: null, child_order: 1 }] });
  });

  it('makes the deeper rows below a new top-level row its children, as the flat model did', () => {
    const tasks: TreeTask[] = [
      { id: '1', parent_id: null, child_order: 1 },
      { id: '2', parent_id: '1', child_order: 1 },
      { id: '3', parent_id: '1', child_order: 2 },
    ];
    const placed = placeNewTask(tasks, { item_order: 3, indent: 1 }, 'new');
    expect(placed.parent_id).toBeNull();
    expect(placed.child_order).toBe(2);
    expect(placed.changes).toEqual([
      { id: '1', parent_id: null, child_order: 1 },
      { id: '3', parent_id: 'new', child_order: 1 },
    ]);
  });

  it('lands the new row at the asked position with a clamped indent (property)', () => {
    fc.assert(
      fc.property(tree, fc.integer({ min: -3, max: 40 }), fc.integer({ min: 0, max: 6 }), ({ tasks: generated }, order, indent) => {
        const NEW = '1';
        const placed = placeNewTask(generated, { item_order: order, indent }, NEW);
        const after = flattenTaskTree([
          ...applied(generated, placed.changes),
          { id: NEW, parent_id: placed.parent_id, child_order: placed.child_order },
        ]);
        const at = Math.max(1, Math.min(order, generated.length + 1));
        expect(after.get(NEW)!.item_order).toBe(at);
        const above = [...after.entries()].find(([, place]) => place.item_order === at - 1)?.[1].indent ?? 0;
        expect(after.get(NEW)!.indent).toBe(clampIndent(indent, above));
      }),
    );
  });
});
