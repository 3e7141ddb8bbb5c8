import { EMPTY_DATA, mergeSync } from './sync-merge';
import type { Item, SyncReply } from './sync-types';

const item = (id: string, content: string, extra: Partial<Item> = {}): Item => ({ id, content, project_id: 'p1', priority: 1, ...extra });

describe('mergeSync', () => {
  const full: SyncReply = {
    full_sync: true,
    sync_token: 't1',
    user: { id: 'u1', full_name: 'Ana', inbox_project_id: 'p1', websocket_url: 'ws://x/ws?token=a' },
    items: [item('1', 'Buy milk'), item('2', 'Call Bob')],
    projects: [{ id: 'p1', name: 'Inbox', inbox_project: true }],
    notes: [{ id: 'n1', item_id: '1', content: 'semi-skimmed' }],
    project_notes: [{ id: 'n2', project_id: 'p1', content: 'on the project' }],
  };

  it('takes a full sync whole, with project comments among the notes, and keeps its token', () => {
    const data = mergeSync(EMPTY_DATA, full);
    expect([...data.items.keys()]).toEqual(['1', '2']);
    expect([...data.notes.keys()]).toEqual(['n1', 'n2']);
    expect(data.projects.get('p1')?.inbox_project).toBe(true);
    expect(data.syncToken).toBe('t1');
    expect(data.user?.full_name).toBe('Ana');
  });

  it('upserts changed rows and forgets deleted ones on an incremental sync', () => {
    const data = mergeSync(mergeSync(EMPTY_DATA, full), {
      full_sync: false,
      sync_token: 't2',
      items: [item('1', 'Buy oat milk'), item('2', 'Call Bob', { is_deleted: true }), item('3', 'New one')],
      notes: [{ id: 'n1', item_id: '1', content: 'gone', is_deleted: true }],
    });
    expect(data.items.get('1')?.content).toBe('Buy oat milk');
    expect(data.items.has('2')).toBe(false);
    expect(data.items.get('3')?.content).toBe('New one');
    expect(data.notes.has('n1')).toBe(false);
    expect(data.notes.has('n2')).toBe(true);
    expect(data.syncToken).toBe('t2');
  });

  it('keeps untouched resources as the same map and the user fields an incremental answer did not repeat', () => {
    const before = mergeSync(EMPTY_DATA, full);
    const after = mergeSync(before, { full_sync: false, sync_token: 't3', user: { id: 'u1', websocket_url: 'ws://x/ws?token=b' }, labels: [] });
    expect(after.projects).toBe(before.projects);
    expect(after.labels).toBe(before.labels);
    expect(after.user).toEqual({ id: 'u1', full_name: 'Ana', inbox_project_id: 'p1', websocket_url: 'ws://x/ws?token=b' });
  });

  it('replaces everything on a second full sync: rows the server no longer sends are gone', () => {
    const data = mergeSync(mergeSync(EMPTY_DATA, full), { full_sync: true, sync_token: 't9', items: [item('2', 'Call Bob')], projects: [] });
    expect([...data.items.keys()]).toEqual(['2']);
    expect(data.projects.size).toBe(0);
    expect(data.notes.size).toBe(0);
  });

  it('merges every resource the views read, collaborators and live notifications included', () => {
    const data = mergeSync(EMPTY_DATA, {
      full_sync: true,
      sections: [{ id: 's1', name: 'Next', project_id: 'p1' }],
      labels: [{ id: 'l1', name: 'home' }],
      filters: [{ id: 'f1', name: 'Urgent', query: 'p1' }],
      collaborators: [{ id: 'u2', full_name: 'Bob' }],
      collaborator_states: [{ project_id: 'p1', user_id: 'u2', state: 'active', role: 'READ_WRITE' }],
      live_notifications: [{ id: 'ln1', notification_type: 'note_added', is_unread: true }],
    });
    expect(data.sections.get('s1')?.name).toBe('Next');
    expect(data.labels.get('l1')?.name).toBe('home');
    expect(data.filters.get('f1')?.query).toBe('p1');
    expect(data.collaborators.get('u2')?.full_name).toBe('Bob');
    expect(data.live_notifications.get('ln1')?.is_unread).toBe(true);
    expect(data.collaborator_states.get('p1:u2')?.role).toBe('READ_WRITE');
    expect(data.syncToken).toBe('*');
  });

  it('keys collaborator states by project and user, and forgets one who left', () => {
    const before = mergeSync(EMPTY_DATA, { full_sync: true, collaborator_states: [{ project_id: 'p1', user_id: 'u2', state: 'active' }, { project_id: 'p1', user_id: 'u3', state: 'invited' }] });
    const after = mergeSync(before, { full_sync: false, collaborator_states: [{ project_id: 'p1', user_id: 'u2', state: 'active', is_deleted: true }] });
    expect([...after.collaborator_states.keys()]).toEqual(['p1:u3']);
  });

  it('keeps the notification settings a sync sends whole, and those held when it sends none', () => {
    const first = mergeSync(EMPTY_DATA, { ...full, settings_notifications: { daily_digest: { notify_email: false, notify_push: false } } });
    expect(first.notificationSettings?.['daily_digest']?.notify_email).toBe(false);
    const unchanged = mergeSync(first, { sync_token: 't2' });
    expect(unchanged.notificationSettings).toBe(first.notificationSettings);
    const changed = mergeSync(unchanged, { sync_token: 't3', settings_notifications: { daily_digest: { notify_email: true, notify_push: false } } });
    expect(changed.notificationSettings?.['daily_digest']?.notify_email).toBe(true);
  });
});
