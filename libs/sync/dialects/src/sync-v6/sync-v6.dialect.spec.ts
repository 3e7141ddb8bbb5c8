import fc from 'fast-check';
import { DomainError } from '@doable/shared-errors';
import { decodeSyncToken } from '@doable/sync-read';
import { errands, item, read, user } from '../../testing/sync-read.fixture';
import { parseV6Request, syncV6Dialect } from './sync-v6.dialect';

const context = { userId: '42' };

describe('sync-v6 requests', () => {
  it('reads seq_no 0 as everything, and resource_types as optional', () => {
    const parsed = parseV6Request({ seq_no: '0' }, context);
    expect(parsed.syncToken).toBe('*');
    expect(parsed.resourceTypes).toContain('items');
    expect(parsed.resourceTypes).not.toContain('sections');
  });

  it('reads any other seq_no as this user\'s sync token at that version (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 62n }), (version) => {
        const parsed = parseV6Request({ seq_no: version.toString(), resource_types: '["items","day_orders"]' }, context);
        expect(decodeSyncToken('42', parsed.syncToken!)).toEqual({ version: version.toString(), notificationCursor: 0, notificationMark: '0' });
        // Day orders come with the tasks: v6's own name for them reads nothing more.
        expect(parsed.resourceTypes).toEqual(['items']);
      }),
    );
  });

  it('refuses a seq_no that is no whole number, and a read without one', () => {
    expect(() => parseV6Request({ seq_no: 'abc' }, context)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT_VALUE' }));
    expect(() => parseV6Request({ seq_no: '-1' }, context)).toThrow(DomainError);
    expect(() => parseV6Request({}, context)).toThrow(expect.objectContaining({ code: 'ARGUMENT_MISSING' }));
  });

  it('takes a write without seq_no as write-only, its commands renamed as v7\'s', () => {
    const parsed = parseV6Request({ commands: '[{"type":"item_add","uuid":"u","args":{"content":"x","indent":2}}]' }, context);
    expect(parsed.syncToken).toBeNull();
    expect(parsed.commands[0]).toMatchObject({ type: 'item_add_flat', args: { content: 'x', indent: 2 } });
  });
});

describe('sync-v6 answers', () => {
  it('writes CamelCase keys, seq_no and UserId, no sync token and no full_sync', () => {
    const body = syncV6Dialect.render({ read: read(['projects', 'user']), tempIdMapping: {} }, parseV6Request({ seq_no: 0, resource_types: '["projects","user"]' }, context));
    expect(Object.keys(body).sort()).toEqual(['Projects', 'TempIdMapping', 'User', 'UserId', 'seq_no', 'seq_no_global']);
    expect(body['seq_no']).toBe(17);
    expect(body['seq_no_global']).toBe(17);
    expect(body['UserId']).toBe(42);
  });

  it('writes the user with timezone and tz_offset instead of tz_info', () => {
    const written = syncV6Dialect.writers.user({ ...user, timezone: 'UTC' });
    expect(written).not.toHaveProperty('tz_info');
    expect(written).toMatchObject({ id: 42, timezone: 'UTC', tz_offset: ['+00:00', 0, 0, 0] });
  });

  it('writes tasks with due_date and has_notifications, projects with their owner and archive fields', () => {
    const task = syncV6Dialect.writers.item(item('12', { due: { date: '2024-05-07', timezone: null, string: 'tomorrow', lang: 'en', is_recurring: false } }));
    expect(task).toMatchObject({ id: 12, date_string: 'tomorrow', due_date: 'Tue 07 May 2024 23:59:59 +0000', due_date_utc: 'Tue 07 May 2024 23:59:59 +0000', has_notifications: 0 });
    expect(task).not.toHaveProperty('date_lang');
    expect(syncV6Dialect.writers.project(errands)).toMatchObject({ id: 2203306141, user_id: 42, archived_date: null, archived_timestamp: 0, item_order: 1, indent: 1 });
  });

  it('answers SyncStatus with command types on errors', () => {
    const parsed = parseV6Request({ commands: [{ type: 'item_delete', uuid: 'd', args: { ids: [5] } }] }, context);
    const refusal = { error_tag: 'ITEM_NOT_FOUND', error_code: 22, error: 'Item not found', http_code: 404, error_extra: {} };
    const body = syncV6Dialect.render({ syncStatus: { d: { '5': refusal } }, tempIdMapping: {} }, parsed);
    expect(body).toEqual({ TempIdMapping: {}, SyncStatus: { d: { '5': { ...refusal, command_type: 'item_delete' } } }, UserId: 42 });
  });
});
