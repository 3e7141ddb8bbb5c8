import type { Item } from '../api/sync-types';
import { addDays, dueDay, localDay } from '../state/dates';
import { dateSettings, dueTime, friendlyDue, isoWeekday } from '../state/friendly-dates';
import { composeDue, RECURRENCE_CHOICES, recurrenceOf, type Recurrence } from '../state/recurrence';
import { updateItem } from '../state/session';
import { viewData } from '../state/store';
import { CommittedInput } from './committed-input';

const pad = (n: number) => String(n).padStart(2, '0');

/** The day the next week starts on, by the person's first weekday (Todoist's "Next week"). */
function nextWeekStart(today: string, startDay: number): string {
  const ahead = (startDay - isoWeekday(today) + 7) % 7 || 7;
  return addDays(today, ahead);
}

/**
 * A task's due date and time: Today, Tomorrow, Next week and No date at one press, a calendar
 * and a clock (the browser's own pickers), and Repeat. A picked day keeps the task's time of day;
 * each choice is sent as it is made (item_update), as Todoist's picker does.
 */
export function DuePicker({ item }: { item: Item }) {
  const settings = dateSettings(viewData.value.user);
  const today = localDay(new Date());
  const time = item.due ? dueTime(item.due) : null;
  const timeText = time ? `${pad(time.hours)}:${pad(time.minutes)}` : '';
  const day = dueDay(item.due) ?? '';
  const setDay = (next: string, at = timeText) => updateItem(item.id, { due: { date: at ? `${next}T${at}:00` : next } });
  const dueString = item.due?.string ?? '';
  const repeat = recurrenceOf(dueString, item.due?.is_recurring === true);
  return (
    <fieldset class="due-picker">
      <legend>Due date</legend>
      <p data-testid="task-view-due">{item.due ? `${friendlyDue(item.due, today, settings)}${item.due.is_recurring ? ` (${item.due.string ?? 'repeats'})` : ''}` : 'No date'}</p>
      <div class="choices">
        <button type="button" onClick={() => setDay(today)}>
          Today
        </button>
        <button type="button" onClick={() => setDay(addDays(today, 1))}>
          Tomorrow
        </button>
        <button type="button" onClick={() => setDay(nextWeekStart(today, settings.startDay))}>
          Next week
        </button>
        <button type="button" onClick={() => updateItem(item.id, { due: null })}>
          No date
        </button>
      </div>
      <span class="field">
        <label for="task-due-day">Date</label>
        <CommittedInput id="task-due-day" type="date" value={day} onCommit={(next) => next && setDay(next)} />
      </span>
      <span class="field">
        <label for="task-due-time">Time</label>
        <CommittedInput id="task-due-time" type="time" value={timeText} disabled={!day} onCommit={(next) => day && setDay(day, next)} />
      </span>
      <span class="field">
        <label for="task-repeat">Repeat</label>
        <select
          id="task-repeat"
          value={repeat}
          onChange={(event) => {
            const next = composeDue(dueString || (day ? `${day}${timeText ? ` ${timeText}` : ''}` : ''), event.currentTarget.value as Recurrence, item.due?.date);
            updateItem(item.id, { due: next ? { string: next } : null });
          }}
        >
          {RECURRENCE_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
          {repeat === 'custom' ? <option value="custom">As typed in Due date</option> : null}
        </select>
      </span>
    </fieldset>
  );
}

/** Deadline (a day, no time) and duration (whole minutes), each sent as it changes. */
export function DeadlineAndDuration({ item }: { item: Item }) {
  return (
    <div class="task-fields">
      <span class="field">
        <label for="task-deadline">Deadline</label>
        <CommittedInput id="task-deadline" type="date" value={item.deadline?.date ?? ''} onCommit={(next) => updateItem(item.id, { deadline: next ? { date: next } : null })} />
      </span>
      <span class="field">
        <label for="task-duration">Duration (minutes)</label>
        <CommittedInput
          id="task-duration"
          type="number"
          min="1"
          step="1"
          value={item.duration?.unit === 'minute' ? String(item.duration.amount) : ''}
          onCommit={(next) => {
            const amount = Number(next);
            updateItem(item.id, { duration: Number.isInteger(amount) && amount > 0 ? { amount, unit: 'minute' } : null });
          }}
        />
      </span>
    </div>
  );
}
