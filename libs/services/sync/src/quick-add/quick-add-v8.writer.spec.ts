import { writeV8Item } from './quick-add-v8.writer';

const v9Item = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: '12',
  user_id: '3',
  project_id: '4',
  section_id: null,
  parent_id: null,
  added_by_uid: '3',
  assigned_by_uid: null,
  responsible_uid: null,
  labels: ['Phone'],
  checked: false,
  collapsed: false,
  is_deleted: false,
  added_at: '2024-01-02T03:04:05.123000Z',
  updated_at: '2024-01-02T03:04:06.999999Z',
  completed_at: null,
  ...overrides,
});

describe('writeV8Item', () => {
  it('writes every timestamp in whole seconds, as v8 did (cut, never rounded up)', () => {
    const v8 = writeV8Item(v9Item({ checked: true, completed_at: '2024-03-04T05:06:07.500000Z' }), new Map());
    expect({
      date_added: v8['date_added'],
      date_completed: v8['date_completed'],
      added_at: v8['added_at'],
      updated_at: v8['updated_at'],
      completed_at: v8['completed_at'],
    }).toEqual({
      date_added: '2024-01-02T03:04:05Z',
      date_completed: '2024-03-04T05:06:07Z',
      added_at: '2024-01-02T03:04:05Z',
      updated_at: '2024-01-02T03:04:06Z',
      completed_at: '2024-03-04T05:06:07Z',
    });
  });

  it('keeps a missing completion null and a timestamp already in whole seconds as it is', () => {
    const v8 = writeV8Item(v9Item({ added_at: '2024-01-02T03:04:05Z' }), new Map());
    expect([v8['date_added'], v8['date_completed'], v8['completed_at']]).toEqual(['2024-01-02T03:04:05Z', null, null]);
  });

  it('answers integer ids, 0/1 flags and label ids', () => {
    const v8 = writeV8Item(v9Item({ checked: true }), new Map([['phone', '77']]));
    expect([v8['id'], v8['user_id'], v8['section_id'], v8['checked'], v8['collapsed'], v8['labels']]).toEqual([12, 3, null, 1, 0, [77]]);
  });
});
