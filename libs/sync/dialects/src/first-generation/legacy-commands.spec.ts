import { canonicalCommand, canonicalCommands } from './legacy-commands';
import { duplicateProtectionUuid } from './duplicate-protection';

describe('first-generation commands', () => {
  it('turns item commands into the domain\'s, with the due, ids and flags translated', () => {
    expect(canonicalCommand('item_add', { content: 'x', project_id: 2300000001, date_string: 'tomorrow', date_lang: 'de', priority: '4' }, 'UTC')).toEqual({
      type: 'item_add',
      args: { content: 'x', project_id: '2300000001', due: { string: 'tomorrow', lang: 'de' }, priority: 4 },
    });
    expect(canonicalCommand('item_update', { id: 9000000001, date_string: '', collapsed: 1 }, 'UTC')).toEqual({ type: 'item_update', args: { id: '9000000001', due: null, is_collapsed: true } });
    expect(canonicalCommand('item_complete', { ids: [9000000001, '$1'], in_history: 0 }, 'UTC')).toEqual({ type: 'item_complete', args: { ids: ['9000000001', '$1'], force_history: false } });
    expect(canonicalCommand('item_delete', { ids: [1] }, 'UTC')).toEqual({ type: 'item_delete', args: { ids: ['1'] } });
  });

  it('places a task by its flat item_order/indent through the domain\'s flat-place commands', () => {
    expect(canonicalCommand('item_add', { content: 'x', item_order: '3', indent: 2 }, 'UTC')).toEqual({ type: 'item_add_flat', args: { content: 'x', item_order: 3, indent: 2 } });
    expect(canonicalCommand('item_update', { id: 9000000001, indent: 1 }, 'UTC')).toEqual({ type: 'item_update_flat', args: { id: '9000000001', indent: 1 } });
    expect(canonicalCommand('item_update_orders_indents', { ids_to_orders_indents: { '9000000001': ['2', 1] } }, 'UTC')).toEqual({
      type: 'item_update_orders_indents',
      args: { ids_to_orders_indents: { '9000000001': [2, 1] } },
    });
  });

  it('turns legacy colours into names and passes unknown commands on', () => {
    expect(canonicalCommand('project_add', { name: 'P', color: 1, indent: 1 }, 'UTC')).toEqual({ type: 'project_add', args: { name: 'P', color: 'salmon' } });
    expect(canonicalCommand('label_update', { id: 5, color: '0' }, 'UTC')).toEqual({ type: 'label_update', args: { id: '5', color: 'green' } });
    expect(canonicalCommand('project_update', { id: 5, color: 99 }, 'UTC')).toEqual({ type: 'project_update', args: { id: '5', color: 99 } });
    expect(canonicalCommand('note_add', { item_id: 1, content: 'c' }, 'UTC')).toEqual({ type: 'note_add', args: { item_id: 1, content: 'c' } });
  });

  it('gives a command with a timestamp the same uuid every time, and one without a fresh one', () => {
    const batch = [
      { type: 'item_add', temp_id: '$1', timestamp: 1411653993012, args: { content: 'a' } },
      { type: 'item_add', temp_id: '$2', timestamp: 1411653993012, args: { content: 'b' } },
      { type: 'item_add', args: { content: 'c' } },
    ];
    const first = canonicalCommands('2100000001', batch, 'UTC');
    const again = canonicalCommands('2100000001', batch, 'UTC');
    expect(again.slice(0, 2).map((command) => command.uuid)).toEqual(first.slice(0, 2).map((command) => command.uuid));
    expect(new Set(first.map((command) => command.uuid)).size).toBe(3);
    expect(again[2].uuid).not.toBe(first[2].uuid);
    expect(first[0]).toMatchObject({ type: 'item_add', temp_id: '$1', args: { content: 'a' } });
    // Another user's identical batch is another batch.
    expect(canonicalCommands('2100000002', batch, 'UTC')[0].uuid).not.toBe(first[0].uuid);
  });

  it('makes uuids of the standard layout', () => {
    expect(duplicateProtectionUuid('1', { type: 'item_add', timestamp: '1' }, 0)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('answers a command without a type with one the domain refuses', () => {
    expect(canonicalCommands('1', [42], 'UTC')[0]).toMatchObject({ type: '', args: {} });
  });
});
