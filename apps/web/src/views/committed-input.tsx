import { useState } from 'preact/hooks';

type Props = {
  id: string;
  type: 'date' | 'time' | 'number';
  min?: string;
  step?: string;
  disabled?: boolean;
  /** What the server (with this tab's pending commands laid over it) holds. */
  value: string;
  /** Called when the person commits the field: a picker's choice, Tab, Enter. */
  onCommit: (value: string) => void;
};

/**
 * An input bound to a stored value and sent when the person commits it (the native change
 * event), as Todoist's task view does for date, time, deadline and duration.
 *
 * While the person is editing, what they typed is theirs. A plain controlled `value` is not
 * enough: Preact writes the prop into the element on every render where they differ, so a sync
 * landing between the typing and the Tab (a push, the answer to the field just left) put the
 * stored value back and the Tab then committed nothing. That is how a duration was lost in a
 * loaded CI run. The draft lives until the field is left; after that the stored value (already
 * showing the committed change, by the pending overlay) is what the field shows.
 */
export function CommittedInput({ value, onCommit, ...rest }: Props) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <input
      {...rest}
      value={draft ?? value}
      onInput={(event) => setDraft(event.currentTarget.value)}
      onChange={(event) => onCommit(event.currentTarget.value)}
      onBlur={() => setDraft(null)}
    />
  );
}
