import { isLogged } from './activity-logged';

describe('what the activity log keeps', () => {
  const event = (objectType: string, eventType: string, extraData: Record<string, unknown> = {}) => ({ objectType, eventType, extraData }) as Parameters<typeof isLogged>[0];

  it('keeps the logged types of items, notes and projects, and nothing of sections, labels, filters', () => {
    for (const type of ['added', 'deleted', 'completed', 'uncompleted']) expect(isLogged(event('item', type))).toBe(true);
    for (const type of ['added', 'updated', 'deleted']) expect(isLogged(event('note', type))).toBe(true);
    for (const type of ['added', 'deleted', 'archived', 'unarchived', 'shared', 'left']) expect(isLogged(event('project', type))).toBe(true);
    expect(isLogged(event('section', 'added'))).toBe(false);
    expect(isLogged(event('label', 'deleted'))).toBe(false);
    expect(isLogged(event('filter', 'updated'))).toBe(false);
    expect(isLogged(event('item', 'archived'))).toBe(false);
  });

  it('keeps an update only when a logged field changed', () => {
    expect(isLogged(event('item', 'updated', { content: 'a' }))).toBe(false);
    expect(isLogged(event('item', 'updated', { content: 'a', last_due_date: null }))).toBe(true);
    expect(isLogged(event('item', 'updated', { content: 'a', last_responsible_uid: '3' }))).toBe(true);
    expect(isLogged(event('project', 'updated', { name: 'a' }))).toBe(false);
    expect(isLogged(event('project', 'updated', { name: 'a', last_name: 'b' }))).toBe(true);
  });
});
