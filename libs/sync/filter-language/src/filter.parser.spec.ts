import { DomainError } from '@doable/shared-errors';
import type { FilterNode, FilterTerm } from './filter.ast';
import { tokenizeFilter } from './filter.lexer';
import { namePattern, parseFilterQuery } from './filter.parser';

/** The expression of a one-list query. */
function parseOne(query: string): FilterNode {
  const lists = parseFilterQuery(query);
  expect(lists).toHaveLength(1);
  return lists[0].expression;
}

const term = (t: FilterTerm): FilterNode => ({ kind: 'term', term: t });
const name = (text: string) => namePattern(text);

function parseError(query: string): DomainError {
  try {
    parseFilterQuery(query);
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error(`expected "${query}" to be rejected`);
}

describe('tokenizeFilter', () => {
  it('splits operators and keeps spaces inside terms', () => {
    expect(tokenizeFilter(' (today | #Home chores) & !@wait ')).toEqual([
      { kind: 'lparen', position: 1 },
      { kind: 'term', raw: 'today', position: 2 },
      { kind: 'or', position: 8 },
      { kind: 'term', raw: '#Home chores', position: 10 },
      { kind: 'rparen', position: 22 },
      { kind: 'and', position: 24 },
      { kind: 'not', position: 26 },
      { kind: 'term', raw: '@wait', position: 27 },
    ]);
  });

  it('keeps escapes in the raw term so the parser can tell literal from operator', () => {
    expect(tokenizeFilter('#R\\&D\\ ')).toEqual([{ kind: 'term', raw: '#R\\&D\\ ', position: 0 }]);
  });

  it('rejects a trailing backslash', () => {
    expect(() => tokenizeFilter('#Work\\')).toThrow(/unfinished escape/);
  });
});

describe('parseFilterQuery: terms', () => {
  it.each<[string, FilterTerm]>([
    ['today', { type: 'relativeDay', offset: 0 }],
    ['Today', { type: 'relativeDay', offset: 0 }],
    ['tomorrow', { type: 'relativeDay', offset: 1 }],
    ['yesterday', { type: 'relativeDay', offset: -1 }],
    ['overdue', { type: 'overdue' }],
    ['od', { type: 'overdue' }],
    ['no date', { type: 'noDate' }],
    ['No  Due   Date', { type: 'noDate' }],
    ['no time', { type: 'noTime' }],
    ['next 7 days', { type: 'dayRange', days: 7 }],
    ['7 days', { type: 'dayRange', days: 7 }],
    ['1 day', { type: 'dayRange', days: 1 }],
    ['-3 days', { type: 'dayRange', days: -3 }],
    ['p1', { type: 'priority', level: 1 }],
    ['P4', { type: 'priority', level: 4 }],
    ['no labels', { type: 'noLabels' }],
    ['shared', { type: 'shared' }],
    ['recurring', { type: 'recurring' }],
    ['subtask', { type: 'subtask' }],
    ['assigned', { type: 'assigned' }],
    ['view all', { type: 'all' }],
    ['all', { type: 'all' }],
    ['due before: Jan 3', { type: 'due', comparison: 'before', phrase: 'jan 3' }],
    ['due after:next monday', { type: 'due', comparison: 'after', phrase: 'next monday' }],
    ['due: 3 days', { type: 'due', comparison: 'on', phrase: '3 days' }],
    ['date before: tomorrow', { type: 'due', comparison: 'before', phrase: 'tomorrow' }],
    ['Due Before :  Dec 1', { type: 'due', comparison: 'before', phrase: 'dec 1' }],
    ['created before: -7 days', { type: 'created', comparison: 'before', phrase: '-7 days' }],
    ['created after: Nov 1', { type: 'created', comparison: 'after', phrase: 'nov 1' }],
    ['created: today', { type: 'created', comparison: 'on', phrase: 'today' }],
    ['Jan 3', { type: 'date', phrase: 'jan 3' }],
    ['next monday', { type: 'date', phrase: 'next monday' }],
    ['#Work', { type: 'project', name: name('Work'), withSubprojects: false }],
    ['##Work', { type: 'project', name: name('Work'), withSubprojects: true }],
    ['#Home chores', { type: 'project', name: name('Home chores'), withSubprojects: false }],
    ['#Work*', { type: 'project', name: { segments: ['Work', ''] }, withSubprojects: false }],
    ['#R\\&D', { type: 'project', name: { segments: ['R&D'] }, withSubprojects: false }],
    ['#A\\*B', { type: 'project', name: { segments: ['A*B'] }, withSubprojects: false }],
    ['/Meetings', { type: 'section', name: name('Meetings') }],
    ['/Meet*', { type: 'section', name: { segments: ['Meet', ''] } }],
    ['/*', { type: 'section', name: { segments: ['', ''] } }],
    ['@home', { type: 'label', name: name('home') }],
    ['@home*', { type: 'label', name: { segments: ['home', ''] } }],
    ['search: Call mom', { type: 'search', text: name('Call mom') }],
    ['search: a\\:b', { type: 'search', text: name('a:b') }],
    ['assigned to: me', { type: 'assignedTo', who: { kind: 'me' } }],
    ['assigned to: Others', { type: 'assignedTo', who: { kind: 'others' } }],
    ['assigned to: Becky', { type: 'assignedTo', who: { kind: 'name', name: name('Becky') } }],
    ['assigned by: me', { type: 'assignedBy', who: { kind: 'me' } }],
  ])('%s', (query, expected) => {
    expect(parseOne(query)).toEqual(term(expected));
  });
});

describe('parseFilterQuery: operators', () => {
  const today = term({ type: 'relativeDay', offset: 0 });
  const overdue = term({ type: 'overdue' });
  const p1 = term({ type: 'priority', level: 1 });

  it('& binds tighter than |', () => {
    expect(parseOne('today | overdue & p1')).toEqual({ kind: 'or', left: today, right: { kind: 'and', left: overdue, right: p1 } });
  });

  it('parentheses group', () => {
    expect(parseOne('(today | overdue) & p1')).toEqual({ kind: 'and', left: { kind: 'or', left: today, right: overdue }, right: p1 });
  });

  it('! binds tightest and may repeat', () => {
    expect(parseOne('!today & !!p1')).toEqual({ kind: 'and', left: { kind: 'not', operand: today }, right: { kind: 'not', operand: { kind: 'not', operand: p1 } } });
  });

  it('! applies to a group', () => {
    expect(parseOne('!(today | overdue)')).toEqual({ kind: 'not', operand: { kind: 'or', left: today, right: overdue } });
  });

  it('operators are left-associative', () => {
    expect(parseOne('today | overdue | p1')).toEqual({ kind: 'or', left: { kind: 'or', left: today, right: overdue }, right: p1 });
  });

  it('a comma makes separate lists, each with its own source text', () => {
    const lists = parseFilterQuery('today | overdue, #Work & p1 ,no date');
    expect(lists.map((list) => list.source)).toEqual(['today | overdue', '#Work & p1', 'no date']);
    expect(lists[2].expression).toEqual(term({ type: 'noDate' }));
  });

  it('a project with a name and a section combine', () => {
    expect(parseOne('#Work & /Meetings')).toEqual({
      kind: 'and',
      left: term({ type: 'project', name: name('Work'), withSubprojects: false }),
      right: term({ type: 'section', name: name('Meetings') }),
    });
  });

  it('escaped operators stay in names', () => {
    expect(parseOne('#Work \\(old\\) | @a\\|b')).toEqual({
      kind: 'or',
      left: term({ type: 'project', name: name('Work (old)'), withSubprojects: false }),
      right: term({ type: 'label', name: name('a|b') }),
    });
  });
});

describe('parseFilterQuery: errors', () => {
  it.each([
    ['', /empty/],
    ['   ', /empty/],
    ['today &', /ends after "&"/],
    ['today |', /ends after "\|"/],
    ['!', /ends after "!"/],
    ['& today', /Unexpected "&" at position 1/],
    ['(today', /"\(" at position 1 is never closed/],
    ['today)', /Unexpected "\)" at position 6/],
    ['()', /Unexpected "\)" at position 2/],
    ['today (p1)', /Unexpected "\(" at position 7/],
    ['today,', /Empty filter list at position 7/],
    [',today', /Empty filter list at position 1/],
    ['today,,p1', /Empty filter list at position 7/],
    ['#', /"#" needs a name/],
    ['##', /"##" needs a name/],
    ['@', /"@" needs a name/],
    ['/ ', /"\/" needs a name/],
    ['search:', /"search:" needs a name/],
    ['assigned to:', /"assigned to:" needs a name/],
    ['due before:', /needs a date/],
    ['created after:  ', /needs a date/],
    ['0 days', /names no days/],
  ])('%j is rejected', (query, message) => {
    const error = parseError(query);
    expect(error.code).toBe('INVALID_ARGUMENT_VALUE');
    expect(error.extra['argument']).toBe('filter');
    expect(error.message).toMatch(message);
  });

  it('rejects an over-long query', () => {
    expect(parseError('x'.repeat(2000)).message).toMatch(/longer than 1024/);
  });
});
