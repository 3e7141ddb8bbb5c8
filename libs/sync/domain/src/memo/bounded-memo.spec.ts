import { BoundedMemo } from './bounded-memo';

describe('BoundedMemo', () => {
  it('works a key out once, keeps null, and keeps no more than its limit', () => {
    const memo = new BoundedMemo<string, string | null>(2);
    const calls: string[] = [];
    const compute = (key: string) => {
      calls.push(key);
      return key === 'none' ? null : key.toUpperCase();
    };
    expect([memo.get('a', compute), memo.get('a', compute), memo.get('none', compute), memo.get('none', compute)]).toEqual(['A', 'A', null, null]);
    expect(calls).toEqual(['a', 'none']);
    // Full: the third key starts it again.
    expect(memo.get('b', compute)).toBe('B');
    expect(memo.get('a', compute)).toBe('A');
    expect(calls).toEqual(['a', 'none', 'b', 'a']);
  });

  it('keeps nothing for a key whose work threw', () => {
    const memo = new BoundedMemo<string, number>(10);
    expect(() => memo.get('x', () => { throw new RangeError('unknown'); })).toThrow(RangeError);
    expect(memo.get('x', () => 1)).toBe(1);
  });
});
