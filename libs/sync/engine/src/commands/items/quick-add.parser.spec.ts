import { type DateContext, parseDue } from '@doable/sync-dates';
import { type QuickAddContext, type QuickAddParse, parseQuickAdd } from './quick-add.parser';

/** Wednesday 18 November 2026, 11:00 in Berlin (as the due-date grammar's own specs). */
const BERLIN: DateContext = { now: new Date('2026-11-18T10:00:00Z'), timezone: 'Europe/Berlin' };

const isDate = (text: string): boolean => {
  try {
    return parseDue({ string: text }, BERLIN) !== null;
  } catch {
    return false;
  }
};

const context: QuickAddContext = {
  inboxProjectId: '1',
  projects: [
    { id: '1', name: 'Inbox' },
    { id: '2', name: 'Work' },
    { id: '3', name: 'Work Stuff' },
    { id: '4', name: 'Home' },
  ],
  sections: [
    { id: '10', projectId: '2', name: 'Meetings' },
    { id: '11', projectId: '2', name: 'Big Ideas' },
    { id: '12', projectId: '4', name: 'Garden' },
    { id: '13', projectId: '1', name: 'Later' },
  ],
  collaborators: [
    { id: '100', projectId: '2', fullName: 'Ann Lee', email: 'ann@example.test' },
    { id: '101', projectId: '2', fullName: 'Bob Stone', email: 'bob@example.test' },
    { id: '102', projectId: '4', fullName: 'Cat Moss', email: 'cat@example.test' },
  ],
  isDate,
};

const plain: QuickAddParse = { content: '', description: null, projectId: null, sectionId: null, responsibleUid: null, labels: [], priority: null, dueString: null, deadlineString: null };

const rows: Array<[string, Partial<QuickAddParse>]> = [
  ['Buy milk', { content: 'Buy milk' }],
  ['Buy milk #Work', { content: 'Buy milk', projectId: '2' }],
  ['Buy milk #work', { content: 'Buy milk', projectId: '2' }],
  ['#Work Buy milk', { content: 'Buy milk', projectId: '2' }],
  ['Buy milk #Work Stuff', { content: 'Buy milk', projectId: '3' }],
  ['Buy milk #"Work Stuff"', { content: 'Buy milk', projectId: '3' }],
  ['Buy milk #Work\\ Stuff', { content: 'Buy milk', projectId: '3' }],
  ['Buy milk #Unknown', { content: 'Buy milk #Unknown' }],
  ['Buy milk #Workshop', { content: 'Buy milk #Workshop' }],
  ['Issue#Work stays', { content: 'Issue#Work stays' }],
  ['Plan #Work /Meetings', { content: 'Plan', projectId: '2', sectionId: '10' }],
  ['Plan #Work /big ideas', { content: 'Plan', projectId: '2', sectionId: '11' }],
  ['Plan #Work /"Big Ideas"', { content: 'Plan', projectId: '2', sectionId: '11' }],
  ['Plan #Work /Garden', { content: 'Plan /Garden', projectId: '2' }],
  ['Plan /Later', { content: 'Plan', sectionId: '13' }],
  ['Review #Work +Ann', { content: 'Review', projectId: '2', responsibleUid: '100' }],
  ['Review #Work +"Bob Stone" tomorrow', { content: 'Review', projectId: '2', responsibleUid: '101', dueString: 'tomorrow' }],
  ['Review #Work +bob@example.test', { content: 'Review', projectId: '2', responsibleUid: '101' }],
  ['Review #Work +Cat', { content: 'Review +Cat', projectId: '2' }],
  ['Review +Ann', { content: 'Review +Ann' }],
  ['C++ rocks #Work', { content: 'C++ rocks', projectId: '2' }],
  ['Call mom @phone', { content: 'Call mom', labels: ['phone'] }],
  ['Call mom @phone @home @Phone', { content: 'Call mom', labels: ['phone', 'home'] }],
  ['Call mom @"on the go"', { content: 'Call mom', labels: ['on the go'] }],
  ['mail me@example.com', { content: 'mail me@example.com' }],
  ['Fix bug p1', { content: 'Fix bug', priority: 4 }],
  ['Fix bug P2', { content: 'Fix bug', priority: 3 }],
  ['Fix bug p4', { content: 'Fix bug', priority: 1 }],
  ['Fix bug !!2', { content: 'Fix bug', priority: 3 }],
  ['Fix bug p5', { content: 'Fix bug p5' }],
  ['Fix app1', { content: 'Fix app1' }],
  ['Pay rent tomorrow', { content: 'Pay rent', dueString: 'tomorrow' }],
  ['Pay rent tomorrow at 5pm', { content: 'Pay rent', dueString: 'tomorrow at 5pm' }],
  ['Water plants every day', { content: 'Water plants', dueString: 'every day' }],
  ['tomorrow', { content: 'tomorrow' }],
  ['Tomorrow is another day', { content: 'Tomorrow is another day' }],
  ['Report {Dec 24} tomorrow', { content: 'Report', deadlineString: 'Dec 24', dueString: 'tomorrow' }],
  ['Report {not a date}', { content: 'Report {not a date}' }],
  ['Report // with the numbers', { content: 'Report', description: 'with the numbers' }],
  ['Read http://example.com later', { content: 'Read http://example.com later' }],
  [
    'Ship release #Work /Meetings @urgent p1 {Dec 31} tomorrow 9am // check the CI first',
    { content: 'Ship release', projectId: '2', sectionId: '10', labels: ['urgent'], priority: 4, deadlineString: 'Dec 31', dueString: 'tomorrow 9am', description: 'check the CI first' },
  ],
];

describe('parseQuickAdd', () => {
  it.each(rows)('%s', (line, expected) => {
    expect(parseQuickAdd(line, context)).toEqual({ ...plain, ...expected });
  });
});
