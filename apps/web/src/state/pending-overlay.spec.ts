import { EMPTY_DATA, mergeSync } from '../api/sync-merge';
import { applyPending } from './pending-overlay';

const data = mergeSync(EMPTY_DATA, {
  full_sync: true,
  user: { id: 'u1', inbox_project_id: 'inbox', full_name: 'Ana', tz_info: { timezone: 'UTC', hours: 0 }, start_day: 1, time_format: 0, date_format: 0 },
  projects: [
    { id: 'inbox', name: 'Inbox', inbox_project: true },
    { id: 'work', name: 'Work', child_order: 1 },
  ],
  items: [
    { id: '1', content: 'Buy milk', project_id: 'inbox', priority: 1, due: { date: '2026-11-27', string: 'today' } },
    { id: '2', content: 'Call Bob', project_id: 'inbox', priority: 1 },
    { id: '3', content: 'Write report', project_id: 'work', priority: 1 },
  ],
});

describe('applyPending', () => {
  it('is the server state itself when nothing waits', () => {
    expect(applyPending(data, [])).toBe(data);
  });

  it('shows a task being added (in the inbox when no project was named) and its comment', () => {
    const view = applyPending(data, [
      { type: 'item_add', uuid: 'c1', temp_id: 'tmp-1', args: { content: 'Offline task' } },
      { type: 'note_add', uuid: 'c2', temp_id: 'tmp-n', args: { item_id: 'tmp-1', content: 'a note' } },
    ]);
    expect(view.items.get('tmp-1')).toEqual(expect.objectContaining({ content: 'Offline task', project_id: 'inbox', checked: false }));
    expect(view.notes.get('tmp-n')).toEqual(expect.objectContaining({ item_id: 'tmp-1', content: 'a note', posted_uid: 'u1' }));
    expect(data.items.has('tmp-1')).toBe(false);
  });

  it('shows a queued quick add as typed, where the view put it, until the server parses it', () => {
    const view = applyPending(data, [
      { type: 'quick_add', uuid: 'q1', temp_id: 'tmp-q', args: { text: 'Offline task tomorrow p2 @phone #Work', preview: { content: 'Offline task tomorrow p2 @phone', project_id: 'work' } } },
    ]);
    expect(view.items.get('tmp-q')).toEqual(expect.objectContaining({ content: 'Offline task tomorrow p2 @phone', project_id: 'work', priority: 1, checked: false }));
  });

  it('shows an answered quick add once: as typed until the task it made is synced, then only the synced task', () => {
    const answered = { type: 'quick_add' as const, uuid: 'q1', temp_id: 'tmp-q', args: { text: 'Call Ana tomorrow', preview: { content: 'Call Ana tomorrow' }, answered_id: '77' } };
    expect(applyPending(data, [answered]).items.get('tmp-q')?.content).toBe('Call Ana tomorrow');
    const synced = { ...data, items: new Map(data.items).set('77', { id: '77', project_id: 'inbox', content: 'Call Ana', priority: 1 }) };
    const view = applyPending(synced, [answered]);
    expect(view.items.has('tmp-q')).toBe(false);
    expect([...view.items.values()].filter((item) => item.content.startsWith('Call Ana')).map((item) => item.id)).toEqual(['77']);
  });

  it('shows completions, reopenings, edits and deletions before the server answers', () => {
    const view = applyPending(data, [
      { type: 'item_complete', uuid: 'c1', args: { ids: ['1'] } },
      { type: 'item_update', uuid: 'c2', args: { id: '2', content: 'Call Bob back', priority: 4, due: { string: 'next monday' } } },
      { type: 'item_uncomplete', uuid: 'c3', args: { ids: ['1'] } },
      { type: 'item_delete', uuid: 'c4', args: { ids: ['2'] } },
    ]);
    expect(view.items.get('1')?.checked).toBe(false);
    expect(view.items.has('2')).toBe(false);
    const edited = applyPending(data, [{ type: 'item_update', uuid: 'c2', args: { id: '2', content: 'Call Bob back', priority: 4, due: { string: 'next monday' } } }]);
    expect(edited.items.get('2')).toEqual(expect.objectContaining({ content: 'Call Bob back', priority: 4, due: { date: '', string: 'next monday' } }));
  });

  it('shows a task moved to another project out of its section and parent', () => {
    const view = applyPending(data, [{ type: 'item_move', uuid: 'c1', args: { id: '1', project_id: 'work' } }]);
    expect(view.items.get('1')).toEqual(expect.objectContaining({ project_id: 'work', section_id: null, parent_id: null }));
  });

  it('removes a due set to null and ignores commands about tasks it does not hold', () => {
    const view = applyPending(data, [
      { type: 'item_update', uuid: 'c1', args: { id: '1', due: null } },
      { type: 'item_update', uuid: 'c2', args: { id: 'unknown', content: 'x' } },
      { type: 'label_add', uuid: 'c3', args: { name: 'home' } },
    ]);
    expect(view.items.get('1')?.due).toBeNull();
    expect(view.items.has('unknown')).toBe(false);
  });

  it('shows a profile change (user_update) at once, the zone where api/v1 writes it, and leaves the server state alone', () => {
    const view = applyPending(data, [
      { type: 'user_update', uuid: 'c1', args: { full_name: ' Ana Lima ', timezone: 'Europe/Lisbon' } },
      { type: 'user_update', uuid: 'c2', args: { start_day: 7, time_format: 1, date_format: 1 } },
    ]);
    expect(view.user).toEqual(expect.objectContaining({ id: 'u1', full_name: 'Ana Lima', tz_info: { timezone: 'Europe/Lisbon', hours: 0 }, start_day: 7, time_format: 1, date_format: 1 }));
    expect(data.user?.full_name).toBe('Ana');
    expect(data.user?.tz_info?.timezone).toBe('UTC');
    // Arguments the app does not show change nothing it shows.
    expect(applyPending(data, [{ type: 'user_update', uuid: 'c3', args: { start_page: 'today' } }]).user).toEqual(data.user);
  });

  it('shows a project being added, last, with a task added in it by its temp id', () => {
    const view = applyPending(data, [
      { type: 'project_add', uuid: 'c1', temp_id: 'tmp-p', args: { name: 'Garden' } },
      { type: 'item_add', uuid: 'c2', temp_id: 'tmp-i', args: { content: 'Plant tulips', project_id: 'tmp-p' } },
    ]);
    expect(view.projects.get('tmp-p')).toEqual({ id: 'tmp-p', name: 'Garden', child_order: Number.MAX_SAFE_INTEGER });
    expect(view.items.get('tmp-i')?.project_id).toBe('tmp-p');
    expect(data.projects.has('tmp-p')).toBe(false);
  });

  it("shows a sub-project under its parent, in the parent's workspace", () => {
    const inWorkspace = applyPending(data, [
      { type: 'project_add', uuid: 'c0', temp_id: 'tmp-w', args: { name: 'Roadmap', workspace_id: 'w1' } },
      { type: 'project_add', uuid: 'c1', temp_id: 'tmp-s', args: { name: 'Q3', parent_id: 'tmp-w' } },
      { type: 'project_add', uuid: 'c2', temp_id: 'tmp-h', args: { name: 'Shed', parent_id: 'work' } },
    ]);
    expect(inWorkspace.projects.get('tmp-s')).toEqual(expect.objectContaining({ parent_id: 'tmp-w', workspace_id: 'w1' }));
    expect(inWorkspace.projects.get('tmp-h')).toEqual({ id: 'tmp-h', name: 'Shed', parent_id: 'work', child_order: Number.MAX_SAFE_INTEGER });
  });

  it('shows a project renamed, and a project deleted with its tasks', () => {
    const renamed = applyPending(data, [
      { type: 'project_update', uuid: 'c1', args: { id: 'work', name: 'Office' } },
      { type: 'project_update', uuid: 'c2', args: { id: 'gone', name: 'Nothing' } },
    ]);
    expect(renamed.projects.get('work')).toEqual(expect.objectContaining({ name: 'Office', child_order: 1 }));
    expect(renamed.projects.has('gone')).toBe(false);
    const deleted = applyPending(data, [{ type: 'project_delete', uuid: 'c1', args: { id: 'work' } }]);
    expect(deleted.projects.has('work')).toBe(false);
    expect(deleted.items.has('3')).toBe(false);
    expect(deleted.items.has('1')).toBe(true);
  });
});
