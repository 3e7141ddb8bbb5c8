import { isPlausibleEmail, passwordProblem } from './password-policy';

describe('passwordProblem', () => {
  const email = 'ada.lovelace@example.com';

  it.each([
    ['seven characters', 'abc-def', 'PASSWORD_TOO_SHORT'],
    ['empty', '', 'PASSWORD_TOO_SHORT'],
    ['seven characters of which some are astral', 'ab😀😀😀😀x', 'PASSWORD_TOO_SHORT'],
    ['a common password', 'password123', 'COMMON_PASSWORD'],
    ['a common password in capitals', 'QWERTYUIOP', 'COMMON_PASSWORD'],
    ['the whole email', 'ada.lovelace@example.com!', 'PASSWORD_CONTAINS_EMAIL'],
    ['the local part in another case', 'xxADA.LOVELACExx', 'PASSWORD_CONTAINS_EMAIL'],
  ])('refuses %s', (_label, password, problem) => {
    expect(passwordProblem(password, email)).toBe(problem);
  });

  it.each([
    ['a long passphrase', 'correct horse battery staple'],
    ['exactly eight characters', 'b7#kQ9!z'],
    ['a word from the domain only', 'example-is-my-password'],
  ])('accepts %s', (_label, password) => {
    expect(passwordProblem(password, email)).toBeUndefined();
  });

  it('ignores a local part shorter than 3 characters', () => {
    expect(passwordProblem('my-jo-password-x', 'jo@example.com')).toBeUndefined();
  });
});

describe('isPlausibleEmail', () => {
  it.each(['a@b.co', 'first.last+tag@sub.example.org'])('accepts %s', (email) => expect(isPlausibleEmail(email)).toBe(true));
  it.each(['', 'plain', 'a@b', 'a b@c.de', '@c.de', 'a@@c.de'])('refuses %j', (email) => expect(isPlausibleEmail(email)).toBe(false));
});
