import type { FieldTable } from '@doable/contracts-sync';
import { fieldRowWriter } from './field-writer';

/**
 * fieldRowWriter on a table made for the spec: each optional part of a line changes what api/v1
 * and v9 write as field-line.ts says, and a line without them is written as its render says.
 */
const TABLE = {
  id: { column: { type: 'bigint', nullable: false }, apiV1: 'id', v9: 'id', backup: false, template: false, csv: [] },
  is_collapsed: { column: { type: 'boolean', nullable: false }, apiV1: 'is_collapsed', v9: 'collapsed', backup: false, template: false, csv: [] },
  added_at: { column: { type: 'timestamptz', nullable: false }, apiV1: 'added_at', render: 'timestamp', backup: false, template: false, csv: [] },
  is_frozen: { column: null, apiV1: 'is_frozen', fixed: false, backup: false, template: false, csv: [] },
  shared: { column: null, apiV1: 'is_shared', v9: 'shared', backup: false, template: false, csv: [] },
  can_assign: { column: null, apiV1: 'can_assign', from: 'shared', backup: false, template: false, csv: [] },
  sync_id: { column: null, v9: 'sync_id', render: 'null', backup: false, template: false, csv: [] },
  inbox: { column: { type: 'boolean', nullable: false }, apiV1: 'inbox', v9: 'inbox', when: 'true', backup: false, template: false, csv: [] },
  team_id: { column: { type: 'bigint', nullable: true }, apiV1: 'team_id', when: { set: 'team_id' }, backup: false, template: false, csv: [] },
  visibility: { column: { type: 'text', nullable: false }, apiV1: 'access', when: { set: 'team_id' }, wrap: 'visibility', backup: false, template: false, csv: [] },
  personal_note: { column: { type: 'text', nullable: true }, apiV1: 'personal_note', when: { unset: 'team_id' }, backup: false, template: false, csv: [] },
  reactions: { column: { type: 'jsonb', nullable: false }, apiV1: 'reactions', emptyAsNull: true, backup: false, template: false, csv: [] },
  kind: { column: { type: 'text', nullable: false }, apiV1: 'kind', v9: 'kind', backup: false, template: false, csv: [] },
  radius: { column: { type: 'integer', nullable: true }, apiV1: 'radius', v9: 'radius', when: { field: 'kind', in: ['place'] }, absent: 0, backup: false, template: false, csv: [] },
  due: { column: { type: 'jsonb', nullable: true }, apiV1: 'due', v9: 'due', when: { field: 'kind', in: ['time'] }, v9When: { field: 'kind', in: ['time', 'offset'] }, backup: false, template: false, csv: [] },
  role: { column: null, apiV1: 'role', backup: false, template: false, csv: [] },
} as const satisfies FieldTable;

const personal = {
  id: '1',
  is_collapsed: true,
  added_at: new Date('2026-01-02T03:04:05.678Z'),
  shared: false,
  inbox: false,
  team_id: null,
  visibility: 'team',
  personal_note: 'mine',
  reactions: {},
  kind: 'offset',
  radius: null,
  due: null,
};

describe('fieldRowWriter', () => {
  it('writes each line under its api/v1 key, in the table order, as its parts say', () => {
    expect(JSON.stringify(fieldRowWriter(TABLE, 'apiV1')(personal))).toBe(
      JSON.stringify({
        id: '1',
        is_collapsed: true,
        added_at: '2026-01-02T03:04:05.678000Z',
        is_frozen: false,
        is_shared: false,
        can_assign: false,
        personal_note: 'mine',
        reactions: null,
        kind: 'offset',
        role: null,
      }),
    );
  });

  it('writes the keys a condition holds for, wrapped, read from the named field, the value for null', () => {
    const inTeam = { ...personal, shared: true, inbox: true, team_id: '9', reactions: { '👍': ['1'] }, kind: 'place', role: 'ADMIN' };
    expect(fieldRowWriter(TABLE, 'apiV1')(inTeam)).toEqual({
      id: '1',
      is_collapsed: true,
      added_at: '2026-01-02T03:04:05.678000Z',
      is_frozen: false,
      is_shared: true,
      can_assign: true,
      inbox: true,
      team_id: '9',
      access: { visibility: 'team' },
      reactions: { '👍': ['1'] },
      kind: 'place',
      radius: 0,
      role: 'ADMIN',
    });
  });

  it('writes v9 its own keys, and by v9When where its condition differs', () => {
    expect(fieldRowWriter(TABLE, 'v9')(personal)).toEqual({ id: '1', collapsed: true, shared: false, sync_id: null, kind: 'offset', due: null });
    expect(fieldRowWriter(TABLE, 'apiV1')(personal)).not.toHaveProperty('due');
  });
});
