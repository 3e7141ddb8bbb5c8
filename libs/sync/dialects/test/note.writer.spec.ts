import type { Note } from '@doable/sync-domain';
import { SYNC_DIALECTS } from '../src/sync-dialects';

const note = (overrides: Partial<Note>): Note => ({
  id: '3100000001',
  project_id: '2200000001',
  item_id: '6000000001',
  posted_uid: '42',
  content: 'Hello',
  file_attachment: null,
  uids_to_notify: null,
  reactions: {},
  is_deleted: false,
  posted_at: new Date('2026-01-02T03:04:05.678Z'),
  updated_at: new Date('2026-01-02T03:04:05.678Z'),
  version: '7',
  ...overrides,
});

describe('note writer', () => {
  it.each(['sync-v9', 'sync-api-v1'] as const)('%s: a task comment has item_id and no project_id key', (dialect) => {
    const written = SYNC_DIALECTS[dialect].writers.note(note({}));
    expect(written).toEqual({
      id: '3100000001',
      item_id: '6000000001',
      posted_uid: '42',
      content: 'Hello',
      file_attachment: null,
      uids_to_notify: null,
      reactions: null,
      is_deleted: false,
      posted_at: '2026-01-02T03:04:05.678000Z',
    });
    expect(written).not.toHaveProperty('project_id');
  });

  it('a project comment has project_id and no item_id key; reactions are written when there are some', () => {
    const written = SYNC_DIALECTS['sync-api-v1'].writers.note(note({ item_id: null, reactions: { '👍': ['42'] } }));
    expect(written).toMatchObject({ project_id: '2200000001', reactions: { '👍': ['42'] } });
    expect(written).not.toHaveProperty('item_id');
  });
});
