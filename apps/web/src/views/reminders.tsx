import { useId, useState } from 'preact/hooks';
import type { Item } from '../api/sync-types';
import { describeReminder, dueHasTime, offsetText, RELATIVE_CHOICES, reminderAddArgs, remindersOf } from '../state/reminders';
import { run } from '../state/session';
import { viewData } from '../state/store';

/** A task's reminders: the list with a delete button each, and a form to add one before the due or at a set time. */
export function Reminders({ item }: { item: Item }) {
  const id = useId();
  const [kind, setKind] = useState<'relative' | 'absolute'>(dueHasTime(item) ? 'relative' : 'absolute');
  const [minutes, setMinutes] = useState('30');
  const [dateTime, setDateTime] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reminders = remindersOf(viewData.value, item.id);
  const submit = (event: Event) => {
    event.preventDefault();
    const built = reminderAddArgs(item, kind === 'relative' ? { kind, minutes: Number(minutes) } : { kind, dateTime });
    if ('error' in built) {
      setError(built.error);
      return;
    }
    setError(null);
    setDateTime('');
    run('reminder_add', built.args, crypto.randomUUID());
  };
  return (
    <section class="reminders" aria-label={`Reminders of ${item.content}`}>
      {reminders.length === 0 ? (
        <p class="empty">No reminders.</p>
      ) : (
        <ul aria-label="Reminders">
          {reminders.map((reminder) => (
            <li key={reminder.id} data-testid="reminder">
              {describeReminder(reminder)}{' '}
              <button type="button" onClick={() => run('reminder_delete', { id: reminder.id })} aria-label={`Delete reminder ${describeReminder(reminder)}`}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} aria-label={`Add a reminder to ${item.content}`}>
        <fieldset>
          <legend>Remind me</legend>
          <label>
            <input type="radio" name={`${id}-kind`} value="relative" checked={kind === 'relative'} onChange={() => setKind('relative')} /> Before the due time
          </label>
          <label>
            <input type="radio" name={`${id}-kind`} value="absolute" checked={kind === 'absolute'} onChange={() => setKind('absolute')} /> At a date and time
          </label>
        </fieldset>
        {kind === 'relative' ? (
          <span class="field">
            <label for={`${id}-minutes`}>How long before</label>
            <select id={`${id}-minutes`} value={minutes} onChange={(event) => setMinutes(event.currentTarget.value)}>
              {RELATIVE_CHOICES.map((choice) => (
                <option key={choice} value={String(choice)}>
                  {offsetText(choice)}
                </option>
              ))}
            </select>
          </span>
        ) : (
          <span class="field">
            <label for={`${id}-at`}>Date and time</label>
            <input id={`${id}-at`} type="datetime-local" value={dateTime} onInput={(event) => setDateTime(event.currentTarget.value)} />
          </span>
        )}
        <button type="submit">Add reminder</button>
        {error ? (
          <p role="alert" class="form-error">
            {error}
          </p>
        ) : null}
      </form>
    </section>
  );
}
