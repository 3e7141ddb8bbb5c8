import { EMPTY_DATA } from '../api/sync-merge';
import type { SyncData } from '../api/sync-types';
import { suggestions } from './quick-add-suggest';

const data: SyncData = {
  ...EMPTY_DATA,
  user: { id: 'me', inbox_project_id: 'inbox' },
  projects: new Map([
    ['inbox', { id: 'inbox', name: 'Inbox', inbox_project: true }],
    ['g', { id: 'g', name: 'Back garden' }],
    ['w', { id: 'w', name: 'Work' }],
  ]),
  sections: new Map([
    ['s1', { id: 's1', name: 'Beds', project_id: 'g' }],
    ['s2', { id: 's2', name: 'Meetings', project_id: 'w' }],
  ]),
  labels: new Map([['l', { id: 'l', name: 'outside' }]]),
  collaborators: new Map([['ana', { id: 'ana', full_name: 'Ana Lima' }]]),
  collaborator_states: new Map([['w:ana', { project_id: 'w', user_id: 'ana', state: 'active' }]]),
};

describe('quick add suggestions', () => {
  it('suggests projects for #, escaping spaces, and completes the line', () => {
    expect(suggestions(data, 'Plant tulips #ga')).toEqual([{ kind: 'project', name: 'Back garden', line: 'Plant tulips #Back\\ garden ' }]);
    expect(suggestions(data, 'Plant tulips #').map((s) => s.name)).toEqual(['Back garden', 'Inbox', 'Work']);
  });

  it('suggests the sections and people of the project named earlier in the line', () => {
    expect(suggestions(data, 'Dig #Back\\ garden /').map((s) => s.name)).toEqual(['Beds']);
    expect(suggestions(data, 'Plan #Work /').map((s) => s.name)).toEqual(['Meetings']);
    expect(suggestions(data, 'Plan #Work +a')).toEqual([{ kind: 'assignee', name: 'Ana Lima', line: 'Plan #Work +Ana\\ Lima ' }]);
    expect(suggestions(data, 'Plan +a')).toEqual([]);
  });

  it('suggests labels for @, and nothing for a plain word', () => {
    expect(suggestions(data, 'Weed @out').map((s) => s.line)).toEqual(['Weed @outside ']);
    expect(suggestions(data, 'Weed the beds')).toEqual([]);
    expect(suggestions(data, 'email a@b')).toEqual([]);
  });
});
