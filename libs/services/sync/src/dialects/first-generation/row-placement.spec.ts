import type { SyncCommand } from '../../engine/sync-request';
import { expandPlacements, placementOf } from './row-placement';

const add = (uuid: string, args: Record<string, unknown>, temp_id?: string): SyncCommand => ({ type: 'item_add', uuid, args, ...(temp_id ? { temp_id } : {}) });

describe('row placement', () => {
  it('says what a legacy command needs placed', () => {
    expect(placementOf({ type: 'item_add', args: { content: 'x' } })).toBeUndefined();
    expect(placementOf({ type: 'item_add', args: { indent: 2, project_id: 5 } })).toEqual({ kind: 'add', projectId: '5' });
    expect(placementOf({ type: 'item_update_orders_indents', args: { ids_to_orders_indents: { '7': [1, 1], $1: [2, 1] } } })).toEqual({ kind: 'orders', ids: ['7'] });
  });

  it('adds under the row above and follows the batch\'s own additions', () => {
    const legacy = [
      { type: 'item_add', temp_id: '$1', args: { content: 'Parent', project_id: 5 } },
      { type: 'item_add', temp_id: '$2', args: { content: 'Child', project_id: 5, indent: 2 } },
    ];
    const commands = [add('u1', { content: 'Parent', project_id: '5' }, '$1'), add('u2', { content: 'Child', project_id: '5' }, '$2')];
    expect(expandPlacements(legacy, commands, new Map([['5', [{ id: '10', parent_id: null, child_order: 1 }]]]), new Map(), '1')).toEqual([
      commands[0],
      { ...commands[1], args: { content: 'Child', project_id: '5', parent_id: '10', child_order: 1 } },
    ]);
  });

  it('turns an orders map into moves and one reorder, and drops unreadable entries', () => {
    const legacy = [{ type: 'item_update_orders_indents', args: { ids_to_orders_indents: { '11': [1, 1], '10': ['x', 1] } } }];
    const commands: SyncCommand[] = [{ type: 'item_update_orders_indents', uuid: 'u', args: {} }];
    const tasks = [
      { id: '10', parent_id: null, child_order: 1 },
      { id: '11', parent_id: '10', child_order: 1 },
    ];
    expect(expandPlacements(legacy, commands, new Map([['5', tasks]]), new Map([['11', '5'], ['10', '5']]), '1')).toEqual([
      { type: 'item_move', uuid: 'u:0:m0', args: { id: '11', project_id: '5' } },
      { type: 'item_reorder', uuid: 'u:0:r', args: { items: [{ id: '11', child_order: 1 }, { id: '10', child_order: 2 }] } },
    ]);
  });
});
