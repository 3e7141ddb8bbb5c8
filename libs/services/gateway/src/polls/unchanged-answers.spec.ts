import { UnchangedAnswers } from './unchanged-answers';

const answer = (body: string) => ({ status: 200, body, contentType: 'application/json; charset=utf-8' });

describe('UnchangedAnswers', () => {
  it('gives back a kept answer for the same user and request only', () => {
    const answers = new UnchangedAnswers({ maxUsers: 10, maxPerUser: 4 });
    expect(answers.remember(answers.ticket('1'), 'poll-a', answer('a'))).toBe(true);
    expect(answers.find('1', 'poll-a')).toEqual(answer('a'));
    expect(answers.find('1', 'poll-b')).toBeUndefined();
    expect(answers.find('2', 'poll-a')).toBeUndefined();
  });

  it('forgets a user whose marks moved, and only that user', () => {
    const answers = new UnchangedAnswers({ maxUsers: 10, maxPerUser: 4 });
    answers.remember(answers.ticket('1'), 'poll', answer('one'));
    answers.remember(answers.ticket('2'), 'poll', answer('two'));
    expect(answers.moved(['1', '3'])).toBe(1);
    expect(answers.find('1', 'poll')).toBeUndefined();
    expect(answers.find('2', 'poll')).toEqual(answer('two'));
  });

  it('does not keep an answer that was on its way when the user moved', () => {
    // The race: sync read "nothing new", a write committed and this gateway was told, then the answer arrived.
    const answers = new UnchangedAnswers({ maxUsers: 10, maxPerUser: 4 });
    const ticket = answers.ticket('1');
    answers.moved(['1']);
    expect(answers.remember(ticket, 'poll', answer('stale'))).toBe(false);
    expect(answers.find('1', 'poll')).toBeUndefined();
    // A poll begun after the move is kept.
    expect(answers.remember(answers.ticket('1'), 'poll', answer('fresh'))).toBe(true);
  });

  it('does not keep an answer that was on its way when everything was forgotten', () => {
    const answers = new UnchangedAnswers({ maxUsers: 10, maxPerUser: 4 });
    const ticket = answers.ticket('1');
    answers.clear();
    expect(answers.remember(ticket, 'poll', answer('stale'))).toBe(false);
    expect(answers.size).toBe(0);
  });

  it('forgets the least recently polled user beyond its bound, and the oldest request beyond a user\'s', () => {
    const answers = new UnchangedAnswers({ maxUsers: 2, maxPerUser: 2 });
    answers.remember(answers.ticket('1'), 'poll', answer('one'));
    answers.remember(answers.ticket('2'), 'poll', answer('two'));
    answers.find('1', 'poll'); // 1 is now the most recent
    answers.remember(answers.ticket('3'), 'poll', answer('three'));
    expect(answers.size).toBe(2);
    expect(answers.find('2', 'poll')).toBeUndefined();
    expect(answers.find('1', 'poll')).toEqual(answer('one'));

    answers.remember(answers.ticket('1'), 'second', answer('1b'));
    answers.remember(answers.ticket('1'), 'third', answer('1c'));
    expect(answers.find('1', 'poll')).toBeUndefined();
    expect(answers.find('1', 'third')).toEqual(answer('1c'));
  });

  it('forgets the users it is told not to keep, with any answer of theirs on its way', () => {
    const answers = new UnchangedAnswers({ maxUsers: 10, maxPerUser: 4 });
    answers.remember(answers.ticket('1'), 'poll', answer('one'));
    answers.remember(answers.ticket('2'), 'poll', answer('two'));
    const onItsWay = answers.ticket('1');
    expect(answers.forgetUnless((userId) => userId === '2')).toBe(1);
    expect(answers.find('1', 'poll')).toBeUndefined();
    expect(answers.remember(onItsWay, 'poll', answer('late'))).toBe(false);
    expect(answers.find('2', 'poll')).toEqual(answer('two'));
  });
});
