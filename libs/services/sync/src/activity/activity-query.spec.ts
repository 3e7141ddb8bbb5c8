import { DomainError } from '@doable/shared-errors';
import { decodeActivityCursor, encodeActivityCursor, parseActivities, parseActivityGet, parseObjectEventTypes } from './activity-query';

describe('activity log filters', () => {
  const refused = (work: () => unknown, argument: string) => {
    try {
      work();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENT_VALUE', extra: { argument } });
      return;
    }
    throw new Error(`${argument} was accepted`);
  };

  it('reads activity/get parameters as a query string or a JSON body sends them', () => {
    const query = parseActivityGet({ object_type: 'item', object_id: 12, event_type: 'completed', parent_project_id: '3', parent_item_id: ['4'], initiator_id: '5', limit: '50', offset: 10 });
    expect(query).toMatchObject({ objectType: 'item', objectId: '12', eventType: 'completed', parentProjectId: '3', parentItemId: '4', initiatorId: '5', limit: 50, offset: 10, since: null, until: null });
    expect(parseActivityGet({})).toMatchObject({ limit: 30, offset: 0, objectEventTypes: [] });
  });

  it('counts pages in weeks back from Monday 00:00 UTC', () => {
    const wednesday = new Date('2030-01-09T15:00:00Z');
    expect(parseActivityGet({ page: '0' }, wednesday)).toMatchObject({ since: new Date('2030-01-07T00:00:00Z'), until: null });
    expect(parseActivityGet({ page: '2' }, wednesday)).toMatchObject({ since: new Date('2029-12-24T00:00:00Z'), until: new Date('2029-12-31T00:00:00Z') });
    expect(parseActivityGet({ page: 1 }, new Date('2030-01-13T23:59:59Z'))).toMatchObject({ since: new Date('2029-12-31T00:00:00Z'), until: new Date('2030-01-07T00:00:00Z') });
  });

  it('reads object_event_types as a JSON array, an array of strings, or one string', () => {
    expect(parseObjectEventTypes('["item:", "note:added", ":deleted"]')).toEqual([
      { objectType: 'item', eventType: null },
      { objectType: 'note', eventType: 'added' },
      { objectType: null, eventType: 'deleted' },
    ]);
    expect(parseActivityGet({ object_event_types: ['project:shared'] }).objectEventTypes).toEqual([{ objectType: 'project', eventType: 'shared' }]);
    expect(parseActivityGet({ object_event_types: ['["item:"]'] }).objectEventTypes).toEqual([{ objectType: 'item', eventType: null }]);
    expect(parseActivityGet({ object_event_types: 'note:' }).objectEventTypes).toEqual([{ objectType: 'note', eventType: null }]);
  });

  it('refuses what it cannot read, naming the argument', () => {
    refused(() => parseActivityGet({ object_type: 'planet' }), 'object_type');
    refused(() => parseActivityGet({ event_type: 'exploded' }), 'event_type');
    refused(() => parseActivityGet({ object_id: '-1' }), 'object_id');
    refused(() => parseActivityGet({ initiator_id: '1e3' }), 'initiator_id');
    refused(() => parseActivityGet({ limit: '0' }), 'limit');
    refused(() => parseActivityGet({ limit: '101' }), 'limit');
    refused(() => parseActivityGet({ offset: '-3' }), 'offset');
    refused(() => parseActivityGet({ page: 'x' }), 'page');
    refused(() => parseActivityGet({ object_event_types: '[' }), 'object_event_types');
    refused(() => parseActivityGet({ object_event_types: '[42]' }), 'object_event_types');
    refused(() => parseActivityGet({ object_event_types: '["item"]' }), 'object_event_types');
    refused(() => parseActivityGet({ object_event_types: '["thing:added"]' }), 'object_event_types');
    refused(() => parseActivityGet({ object_event_types: { a: 1 } }), 'object_event_types');
    refused(() => parseActivities({ date_from: 'yesterday' }), 'date_from');
    refused(() => parseActivities({ date_from: '2030-01-02', date_to: '2030-01-01' }), 'date_to');
    refused(() => parseActivities({ annotate_notes: 'perhaps' }), 'annotate_notes');
    refused(() => parseActivities({ cursor: 'not-a-cursor' }), 'cursor');
    refused(() => parseActivities({ cursor: encodeActivityCursor({ date: '2030-01-01T00:00:00Z', id: '9223372036854775808' }) }), 'cursor');
    refused(() => parseActivities({ cursor: encodeActivityCursor({ date: '-271821-04-20T00:00:00Z', id: '1' }) }), 'cursor');
    refused(() => parseActivities({ cursor: encodeActivityCursor({ date: 'someday', id: '1' }) }), 'cursor');
  });

  it('reads api/v1 dates, annotations and cursors', () => {
    const cursor = encodeActivityCursor({ date: '2030-01-01T10:00:00.000Z', id: '77' });
    expect(decodeActivityCursor(cursor)).toEqual({ date: '2030-01-01T10:00:00.000Z', id: '77' });
    expect(parseActivities({ date_from: '2030-01-01', date_to: '2030-01-08', annotate_notes: 'true', annotate_parents: '1', workspace_id: '9', cursor })).toMatchObject({
      since: new Date('2030-01-01'),
      until: new Date('2030-01-08'),
      annotateNotes: true,
      annotateParents: true,
      workspaceId: '9',
      after: { id: '77' },
      limit: 30,
    });
  });
});
