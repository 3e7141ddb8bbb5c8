import { applyTempIdMapping } from './temp-ids';
import type { Command } from './sync-types';

describe('applyTempIdMapping', () => {
  const queued: Command[] = [
    { type: 'note_add', uuid: 'c1', temp_id: 'tmp-note', args: { item_id: 'tmp-item', content: 'hello' } },
    { type: 'item_complete', uuid: 'c2', args: { ids: ['tmp-item', '42'] } },
    { type: 'item_add', uuid: 'c3', temp_id: 'tmp-child', args: { content: 'child', parent_id: 'tmp-item', project_id: 'tmp-project', due: { string: 'tomorrow' } } },
    { type: 'item_update', uuid: 'c4', args: { id: '42', content: 'tmp-item is only a word here' } },
  ];

  it('replaces every reference to a mapped temp id, in scalars, arrays and nested args', () => {
    const changed = applyTempIdMapping(queued, { 'tmp-item': '100', 'tmp-project': '7' });
    expect(changed).toEqual([
      { ...queued[0], args: { item_id: '100', content: 'hello' } },
      { ...queued[1], args: { ids: ['100', '42'] } },
      { ...queued[2], args: { content: 'child', parent_id: '100', project_id: '7', due: { string: 'tomorrow' } } },
    ]);
  });

  it('leaves a command alone when nothing in it was mapped, and keeps its own temp_id', () => {
    const changed = applyTempIdMapping(queued, { 'tmp-note': '5' });
    expect(changed).toEqual([]);
    expect(applyTempIdMapping(queued, {})).toEqual([]);
  });
});
