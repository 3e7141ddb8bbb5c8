import type { ActivityEvent } from './activity-event.model';
import { writeActivityEvent } from './activity.writers';

describe('activity event rendering', () => {
  const event: ActivityEvent = {
    id: '41',
    object_type: 'item',
    object_id: '6000000001',
    event_type: 'updated',
    event_date: new Date('2030-01-09T15:04:05.123Z'),
    parent_project_id: '2200000005',
    parent_item_id: null,
    initiator_id: '7',
    extra_data: { content: 'New', last_content: 'Old' },
  };

  it('writes v9 and api/v1 with string ids, every nullable field present, and microsecond timestamps', () => {
    const written = writeActivityEvent('sync-v9', event);
    expect(written).toEqual({
      id: '41',
      object_type: 'item',
      object_id: '6000000001',
      event_type: 'updated',
      event_date: '2030-01-09T15:04:05.123000Z',
      parent_project_id: '2200000005',
      parent_item_id: null,
      initiator_id: '7',
      extra_data: { content: 'New', last_content: 'Old' },
    });
    expect(writeActivityEvent('rest-api-v1', event)).toEqual(written);
  });

  it('writes v8 and v7 with integer ids and their own timestamps', () => {
    expect(writeActivityEvent('sync-v8', event)).toMatchObject({ id: 41, object_id: 6000000001, parent_project_id: 2200000005, parent_item_id: null, initiator_id: 7, event_date: '2030-01-09T15:04:05Z' });
    expect(writeActivityEvent('sync-v7', event)).toMatchObject({ id: 41, event_date: 'Wed 09 Jan 2030 15:04:05 +0000' });
  });
});
