import { useId, useState } from 'preact/hooks';
import type { Item } from '../api/sync-types';
import { describeReminder, dueHasTime, type LocationTrigger, offsetText, type PlaceChoice, RELATIVE_CHOICES, reminderAddArgs, type ReminderChoice, remindersOf } from '../state/reminders';
import { run } from '../state/session';
import { viewData } from '../state/store';

const NO_PLACE: Omit<PlaceChoice, 'kind'> = { name: '', lat: '', long: '', radius: '100', trigger: 'on_enter' };

/** A place's fields: its name, coordinates, radius, and whether arriving or leaving reminds. */
function PlaceFields({ id, place, onChange }: { id: string; place: Omit<PlaceChoice, 'kind'>; onChange: (place: Omit<PlaceChoice, 'kind'>) => void }) {
  const field = (key: 'name' | 'lat' | 'long' | 'radius', label: string, extra: Record<string, string>) => (
    <span class="field">
      <label for={`${id}-${key}`}>{label}</label>
      <input id={`${id}-${key}`} value={place[key]} onInput={(event) => onChange({ ...place, [key]: event.currentTarget.value })} {...extra} />
    </span>
  );
  const trigger = (value: LocationTrigger, label: string) => (
    <label>
      <input type="radio" name={`${id}-trigger`} value={value} checked={place.trigger === value} onChange={() => onChange({ ...place, trigger: value })} /> {label}
    </label>
  );
  return (
    <>
      {field('name', 'Name', { type: 'text', maxLength: '255' })}
      {field('lat', 'Latitude', { type: 'text', inputMode: 'decimal', placeholder: '52.5200' })}
      {field('long', 'Longitude', { type: 'text', inputMode: 'decimal', placeholder: '13.4050' })}
      {field('radius', 'Radius (m)', { type: 'number', min: '1', step: '1' })}
      <fieldset>
        <legend>At the place</legend>
        {trigger('on_enter', 'When I arrive')}
        {trigger('on_leave', 'When I leave')}
      </fieldset>
    </>
  );
}

/** A task's reminders: the list with a delete button each, and a form to add one before the due, at a set time or at a place. */
export function Reminders({ item }: { item: Item }) {
  const id = useId();
  const [kind, setKind] = useState<ReminderChoice['kind']>(dueHasTime(item) ? 'relative' : 'absolute');
  const [minutes, setMinutes] = useState('30');
  const [dateTime, setDateTime] = useState('');
  const [place, setPlace] = useState(NO_PLACE);
  const [error, setError] = useState<string | null>(null);
  const reminders = remindersOf(viewData.value, item.id);
  const submit = (event: Event) => {
    event.preventDefault();
    const choice: ReminderChoice = kind === 'relative' ? { kind, minutes: Number(minutes) } : kind === 'absolute' ? { kind, dateTime } : { kind, ...place };
    const built = reminderAddArgs(item, choice);
    if ('error' in built) {
      setError(built.error);
      return;
    }
    setError(null);
    setDateTime('');
    setPlace(NO_PLACE);
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
          <label>
            <input type="radio" name={`${id}-kind`} value="location" checked={kind === 'location'} onChange={() => setKind('location')} /> At a place
          </label>
        </fieldset>
        {kind === 'location' ? (
          <PlaceFields id={id} place={place} onChange={setPlace} />
        ) : kind === 'relative' ? (
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
