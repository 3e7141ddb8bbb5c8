import { COMBOBOX_START, comboboxKey, expanded } from './combobox-keys';

describe('combobox keys', () => {
  it('moves down and up through the options, wrapping, and opens a closed list', () => {
    let state = COMBOBOX_START;
    const keys: number[] = [];
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowUp', 'ArrowUp', 'ArrowUp']) {
      const result = comboboxKey(state, key, 3);
      expect(result.handled).toBe(true);
      state = result.state;
      keys.push(state.active);
    }
    expect(keys).toEqual([0, 1, 2, 0, 2, 1, 0]);
    expect(comboboxKey({ open: false, active: -1 }, 'ArrowUp', 3).state).toEqual({ open: true, active: 2 });
    expect(comboboxKey({ open: false, active: -1 }, 'ArrowDown', 3).state).toEqual({ open: true, active: 0 });
  });

  it('takes the active option on Enter, and leaves Enter to the form when none is active', () => {
    expect(comboboxKey({ open: true, active: 1 }, 'Enter', 3)).toEqual({ state: { open: false, active: -1 }, handled: true, pick: 1 });
    expect(comboboxKey(COMBOBOX_START, 'Enter', 3).handled).toBe(false);
    expect(comboboxKey({ open: false, active: -1 }, 'Enter', 3).handled).toBe(false);
    // The list shrank under the active option as the text changed: nothing is taken.
    expect(comboboxKey({ open: true, active: 4 }, 'Enter', 2).handled).toBe(false);
  });

  it('closes an open list on Escape, and leaves a second Escape to what is around the box', () => {
    const first = comboboxKey({ open: true, active: 0 }, 'Escape', 3);
    expect(first).toEqual({ state: { open: false, active: -1 }, handled: true });
    expect(expanded(first.state, 3)).toBe(false);
    expect(comboboxKey(first.state, 'Escape', 3).handled).toBe(false);
  });

  it('leaves every key alone with no option, and other keys always', () => {
    for (const key of ['ArrowDown', 'ArrowUp', 'Enter', 'Escape']) expect(comboboxKey(COMBOBOX_START, key, 0).handled).toBe(false);
    expect(comboboxKey({ open: true, active: 0 }, 'a', 3).handled).toBe(false);
    expect(expanded(COMBOBOX_START, 0)).toBe(false);
  });
});
