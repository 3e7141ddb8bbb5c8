import { objectEventHeads, type ObjectEvent, objectEvents, readObjectEvent, readObjectEventFacts } from './object-events';

const entry = (overrides: Partial<ObjectEvent> = {}): ObjectEvent => ({
  objectType: 'item',
  objectId: '5001',
  eventType: 'updated',
  initiatorId: '101',
  eventDate: '2026-11-29T12:00:00.000Z',
  parentProjectId: '7001',
  parentItemId: null,
  workspaceId: null,
  extraData: { content: 'Buy milk', last_content: 'Buy' },
  object: { id: '5001', content: 'Buy milk', labels: ['a'] },
  previous: { id: '5001', content: 'Buy' },
  audience: ['101', '202'],
  ...overrides,
});

describe('the v2 object event as its consumers read it', () => {
  it('passes every payload the contract accepts, each entry unchanged for the consumer to read whole', () => {
    const payload = { events: [entry(), entry({ objectType: 'note', eventType: 'added', fileUrl: null, object: undefined, previous: undefined, audience: undefined })] };
    const contract = objectEvents.payload.parse(payload);
    const heads = objectEventHeads.parse(payload);
    expect(heads).toEqual(contract);
    expect(heads.events.map(readObjectEvent)).toEqual(contract.events);
  });

  it('checks the envelope and each head strictly, whatever the consumer reads', () => {
    expect(objectEventHeads.safeParse({ events: [] }).success).toBe(false);
    expect(objectEventHeads.safeParse({ events: [{ ...entry(), objectType: 'task' }] }).success).toBe(false);
    expect(objectEventHeads.safeParse({ events: [{ ...entry(), objectId: 'x' }] }).success).toBe(false);
    expect(objectEventHeads.safeParse({ events: [{ ...entry(), eventType: 'renamed' }] }).success).toBe(false);
    expect(objectEventHeads.safeParse({ events: [{ ...entry(), initiatorId: 101 }] }).success).toBe(false);
    expect(objectEventHeads.safeParse({ events: [{ ...entry(), audience: ['101', 'someone'] }] }).success).toBe(false);
  });

  it('leaves the rest of an entry to the consumer that uses it: whole, or less the object it carries', () => {
    const unreadableObject = { ...entry(), object: 'not a task' };
    const [head] = objectEventHeads.parse({ events: [unreadableObject] }).events;
    expect(() => readObjectEvent(head)).toThrow();
    const facts = readObjectEventFacts(head);
    expect(facts).toEqual(entry({ object: undefined, previous: undefined }));
    expect(Object.keys(facts)).not.toContain('object');
    const [badDate] = objectEventHeads.parse({ events: [{ ...entry(), eventDate: 20261129 }] }).events;
    expect(() => readObjectEventFacts(badDate)).toThrow();
  });
});

describe('the v2 object event as sync writes it', () => {
  const written = objectEvents.checkedOnWrite!;

  it('passes every payload the contract accepts, and writes it as the contract would, less what neither names', () => {
    const payload = { events: [entry(), entry({ objectType: 'note', eventType: 'added', fileUrl: null, object: undefined, previous: undefined, audience: undefined })] };
    expect(written.parse(payload)).toEqual(objectEvents.payload.parse(payload));
    const stray = { events: [{ ...entry(), secret: 'not in the contract' }] };
    expect(written.parse(stray)).toEqual(objectEvents.payload.parse(stray));
    expect(JSON.stringify(written.parse(stray))).not.toContain('secret');
  });

  it('refuses what the contract refuses, the object states checked only as objects', () => {
    for (const bad of [
      { events: [] },
      { events: [{ ...entry(), objectId: 'x' }] },
      { events: [{ ...entry(), parentProjectId: 'project' }] },
      { events: [{ ...entry(), workspaceId: 7 }] },
      { events: [{ ...entry(), eventDate: 20261129 }] },
      { events: [{ ...entry(), extraData: null }] },
      { events: [{ ...entry(), object: 'not a task' }] },
      { events: [{ ...entry(), previous: ['not', 'a', 'task'] }] },
    ]) {
      expect(objectEvents.payload.safeParse(bad).success).toBe(false);
      expect(written.safeParse(bad).success).toBe(false);
    }
  });
});
