/**
 * The keys of an editable combobox with a suggestion list (WAI-ARIA Authoring Practices, "list
 * autocomplete with manual selection"): the focus stays in the box, the active option is only
 * pointed at (`aria-activedescendant`). Down/Up open the list and move through it (wrapping),
 * Enter takes the active option (with none active, Enter is the form's: the line is added),
 * Escape closes the list (a second Escape is left to whatever is around the box, e.g. a dialog).
 * Typing opens the list again with nothing active: `typed()`.
 */
export interface ComboboxState {
  /** False after Escape, until the next keystroke that changes the text. */
  open: boolean;
  /** The active option's index, -1 for none. */
  active: number;
}

export const COMBOBOX_START: ComboboxState = { open: true, active: -1 };

export interface ComboboxKeyResult {
  state: ComboboxState;
  /** The key was the combobox's: the caller prevents its default (and stops Escape there). */
  handled: boolean;
  /** An option was taken: its index. */
  pick?: number;
}

/** Whether the list shows: it is open and has options. */
export const expanded = (state: ComboboxState, count: number) => state.open && count > 0;

export function comboboxKey(state: ComboboxState, key: string, count: number): ComboboxKeyResult {
  const shown = expanded(state, count);
  // Past a shrunk list (the text changed under it), nothing is active.
  const active = state.active < count ? state.active : -1;
  switch (key) {
    case 'ArrowDown':
      if (count === 0) return { state, handled: false };
      return { state: { open: true, active: shown ? (active + 1) % count : 0 }, handled: true };
    case 'ArrowUp':
      if (count === 0) return { state, handled: false };
      return { state: { open: true, active: shown && active > 0 ? active - 1 : count - 1 }, handled: true };
    case 'Enter':
      return shown && active >= 0 ? { state: { open: false, active: -1 }, handled: true, pick: active } : { state, handled: false };
    case 'Escape':
      return shown ? { state: { open: false, active: -1 }, handled: true } : { state, handled: false };
    default:
      return { state, handled: false };
  }
}
