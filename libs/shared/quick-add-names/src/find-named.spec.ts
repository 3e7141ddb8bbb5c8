import { findNamed } from './find-named';

const projects = [
  { id: '1', name: 'Home' },
  { id: '2', name: 'Home Office' },
];

describe('findNamed', () => {
  it('takes the longest name after a marker that starts a token, case insensitively', () => {
    expect(findNamed('Call #home office now', '#', projects)).toEqual({ found: projects[1], start: 5, end: 17 });
    expect(findNamed('Call #Home now', '#', projects)).toEqual({ found: projects[0], start: 5, end: 10 });
  });

  it('accepts quoted and backslash-escaped spellings', () => {
    expect(findNamed('Call #"home office"', '#', projects)).toEqual({ found: projects[1], start: 5, end: 19 });
    expect(findNamed('Call #Home\\ Office', '#', projects)).toEqual({ found: projects[1], start: 5, end: 18 });
  });

  it('needs the marker at a token start and the name to end at a space or the line end', () => {
    expect(findNamed('a#Home', '#', projects)).toBeNull();
    expect(findNamed('#Homework', '#', projects)).toBeNull();
    expect(findNamed('#Nowhere then #Home', '#', projects)).toEqual({ found: projects[0], start: 14, end: 19 });
  });
});
