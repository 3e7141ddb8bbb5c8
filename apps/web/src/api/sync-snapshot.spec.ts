import { EMPTY_DATA, mergeSync } from './sync-merge';
import { fromSnapshot, SNAPSHOT_VERSION, toSnapshot } from './sync-snapshot';

const data = mergeSync(EMPTY_DATA, {
  full_sync: true,
  sync_token: 'tok-1',
  user: { id: 'u1', inbox_project_id: 'in' },
  projects: [{ id: 'in', name: 'Inbox', inbox_project: true }],
  items: [{ id: '7', content: 'Call Ana', project_id: 'in', priority: 4 }],
  collaborator_states: [{ project_id: 'in', user_id: 'u2', state: 'active' }],
  reminders: [{ id: 'r1', item_id: '7', type: 'relative', minute_offset: 30 }],
  settings_notifications: { daily_digest: { notify_email: true, notify_push: false } },
});

describe('sync snapshot', () => {
  it('round-trips every resource, the user and the token (so the next sync is incremental)', () => {
    const stored = structuredClone(toSnapshot(data, 'u1', new Date('2026-11-27T10:00:00Z')));
    const restored = fromSnapshot(stored, 'u1');
    expect(restored?.syncToken).toBe('tok-1');
    expect(restored?.user?.id).toBe('u1');
    expect(restored?.items.get('7')?.content).toBe('Call Ana');
    expect(restored?.collaborator_states.get('in:u2')?.state).toBe('active');
    expect(restored?.reminders.get('r1')?.minute_offset).toBe(30);
    expect(restored?.notificationSettings).toEqual({ daily_digest: { notify_email: true, notify_push: false } });
    // An incremental answer merges over it as over live state.
    const next = mergeSync(restored ?? EMPTY_DATA, { sync_token: 'tok-2', items: [{ id: '7', is_deleted: true, content: '', project_id: 'in', priority: 1 }] });
    expect(next.items.size).toBe(0);
    expect(next.projects.size).toBe(1);
  });

  it("ignores another person's snapshot, another version's, and one never synced", () => {
    const stored = toSnapshot(data, 'u1');
    expect(fromSnapshot(stored, 'u2')).toBeNull();
    expect(fromSnapshot({ ...stored, version: SNAPSHOT_VERSION + 1 }, 'u1')).toBeNull();
    expect(fromSnapshot({ ...stored, syncToken: '*' }, 'u1')).toBeNull();
    expect(fromSnapshot({ ...stored, user: { id: 'u9' } }, 'u1')).toBeNull();
    expect(fromSnapshot(undefined, 'u1')).toBeNull();
  });

  it('starts a resource the snapshot did not have empty', () => {
    const stored = toSnapshot(data, 'u1');
    delete stored.resources.workspaces;
    expect(fromSnapshot(stored, 'u1')?.workspaces.size).toBe(0);
  });
});
