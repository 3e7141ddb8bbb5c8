import { EMPTY_DATA, mergeSync } from '../api/sync-merge';
import { looksLikeDate } from './looks-like-date';
import { quickAddNames, quickAddParts, quickAddSpans, quickAddSummary } from './quick-add-highlights';

const data = mergeSync(EMPTY_DATA, {
  full_sync: true,
  user: { id: 'u1', inbox_project_id: 'in' },
  projects: [
    { id: 'in', name: 'Inbox', inbox_project: true },
    { id: 'w', name: 'Work' },
    { id: 'h', name: 'Home Repairs' },
  ],
  sections: [
    { id: 's1', name: 'Next', project_id: 'w' },
    { id: 's2', name: 'Later', project_id: 'in' },
  ],
  collaborators: [{ id: 'u2', full_name: 'Bea Santos', email: 'bea@example.com' }],
  collaborator_states: [{ project_id: 'w', user_id: 'u2', state: 'active' }],
});
const names = quickAddNames(data);

const kinds = (line: string) => quickAddParts(line, quickAddSpans(line, names)).map((part) => [part.kind, part.text]);

describe('quick add highlights', () => {
  it('takes every part the server parser takes, at its place in the line', () => {
    expect(kinds('Call Bea #Work /Next +Bea @phone p1 {friday} tomorrow at 9am // bring notes')).toEqual([
      ['text', 'Call Bea '],
      ['project', '#Work'],
      ['text', ' '],
      ['section', '/Next'],
      ['text', ' '],
      ['assignee', '+Bea'],
      ['text', ' '],
      ['label', '@phone'],
      ['text', ' '],
      ['priority', 'p1'],
      ['text', ' '],
      ['deadline', '{friday}'],
      ['text', ' '],
      ['date', 'tomorrow at 9am'],
      ['text', ' '],
      ['description', '// bring notes'],
    ]);
  });

  it('leaves unknown names, sections of other projects and assignees of unshared projects as content', () => {
    expect(kinds('Fix #Garden /Next +Bea')).toEqual([['text', 'Fix #Garden /Next +Bea']]);
    expect(kinds('Fix /Later')).toEqual([
      ['text', 'Fix '],
      ['section', '/Later'],
    ]);
  });

  it('matches names with spaces quoted or escaped, the longest first', () => {
    expect(kinds('Paint #Home\\ Repairs').at(-1)).toEqual(['project', '#Home\\ Repairs']);
    expect(kinds('Paint #"home repairs" @"at the shop"').filter(([kind]) => kind !== 'text')).toEqual([
      ['project', '#"home repairs"'],
      ['label', '@"at the shop"'],
    ]);
  });

  it('keeps one word of content and takes only a trailing date, not one in the middle', () => {
    expect(kinds('tomorrow')).toEqual([['text', 'tomorrow']]);
    expect(kinds('Plan tomorrow talk')).toEqual([['text', 'Plan tomorrow talk']]);
    expect(kinds('Pay rent every month').at(-1)).toEqual(['date', 'every month']);
  });

  it('takes only the first priority, and a priority only as a whole word', () => {
    expect(kinds('Ship p2 p1 v2p1').filter(([kind]) => kind === 'priority')).toEqual([['priority', 'p2']]);
  });

  it('says what it found in one sentence, in line order', () => {
    const line = 'Call Bea tomorrow p1 #Work';
    expect(quickAddSummary(quickAddSpans(line, names))).toBe('Due: tomorrow. Priority 1. Project: Work');
    expect(quickAddSummary(quickAddSpans('Just text', names))).toBe('');
  });

  it('recognises the common English date forms', () => {
    for (const phrase of ['today', 'tom 5pm', 'next monday', 'fri at 17:30', 'jan 5', '5th march 2027', '2026-12-01', '12/24', 'in 3 days', 'every other week', 'daily', 'noon'])
      expect([phrase, looksLikeDate(phrase)]).toEqual([phrase, true]);
    for (const phrase of ['milk', 'call mom', 'every', 'p1', 'monday talk']) expect([phrase, looksLikeDate(phrase)]).toEqual([phrase, false]);
  });
});
