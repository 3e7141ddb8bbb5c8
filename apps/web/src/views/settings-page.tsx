import { useEffect, useState } from 'preact/hooks';
import { saveNotificationSetting } from '../state/rest-calls';
import { run } from '../state/session';
import { DAILY_DIGEST, notificationRows, type ProfileForm, profileFormOf, profileUpdateArgs, timeZoneChoices, WEEKDAYS } from '../state/settings';
import { savingNotificationChoices, viewData } from '../state/store';

/** Whether the browser knows the zone: the same test the server makes (an IANA name Intl accepts). */
function isZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

let zones: string[] | undefined;
/** The browser's IANA zones, read once (a few hundred names). */
const supportedZones = () => (zones ??= Intl.supportedValuesOf('timeZone'));

/** Name, time zone, first weekday and formats, saved as one user_update of what changed. */
function ProfileSettings() {
  const user = viewData.value.user;
  const shown = profileFormOf(user);
  const [form, setForm] = useState<ProfileForm>(shown);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  // The user object changed (the first sync, a save, another device): the form starts from it again.
  useEffect(() => setForm(shown), [JSON.stringify(shown)]);
  const set = (changes: Partial<ProfileForm>) => setForm({ ...form, ...changes });
  const submit = (event: Event) => {
    event.preventDefault();
    const built = profileUpdateArgs(user, form, isZone);
    if ('error' in built) return setMessage({ error: true, text: built.error });
    if (Object.keys(built.args).length === 0) return setMessage({ error: false, text: 'Nothing to save.' });
    run('user_update', built.args);
    setMessage({ error: false, text: 'Profile saved.' });
  };
  return (
    <section aria-labelledby="settings-profile">
      <h2 id="settings-profile">Profile</h2>
      <form class="settings-form" onSubmit={submit} aria-labelledby="settings-profile">
        <span class="field">
          <label for="settings-name">Full name</label>
          <input id="settings-name" value={form.fullName} maxLength={255} autoComplete="name" onInput={(event) => set({ fullName: event.currentTarget.value })} />
        </span>
        <span class="field">
          <label for="settings-zone">Time zone</label>
          <select id="settings-zone" value={form.timeZone} onChange={(event) => set({ timeZone: event.currentTarget.value })}>
            {timeZoneChoices(form.timeZone, supportedZones()).map((zone) => (
              <option key={zone} value={zone}>
                {zone.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </span>
        <span class="field">
          <label for="settings-start-day">First day of the week</label>
          <select id="settings-start-day" value={String(form.startDay)} onChange={(event) => set({ startDay: Number(event.currentTarget.value) })}>
            {WEEKDAYS.map((day, index) => (
              <option key={day} value={String(index + 1)}>
                {day}
              </option>
            ))}
          </select>
        </span>
        {form.timeFormat !== undefined ? (
          <span class="field">
            <label for="settings-time-format">Time format</label>
            <select id="settings-time-format" value={String(form.timeFormat)} onChange={(event) => set({ timeFormat: Number(event.currentTarget.value) })}>
              <option value="0">24-hour (13:00)</option>
              <option value="1">12-hour (1:00 pm)</option>
            </select>
          </span>
        ) : null}
        {form.dateFormat !== undefined ? (
          <span class="field">
            <label for="settings-date-format">Date format</label>
            <select id="settings-date-format" value={String(form.dateFormat)} onChange={(event) => set({ dateFormat: Number(event.currentTarget.value) })}>
              <option value="0">DD-MM-YYYY</option>
              <option value="1">MM-DD-YYYY</option>
            </select>
          </span>
        ) : null}
        <button type="submit">Save profile</button>
        <p role="status" class={message?.error ? 'form-error' : 'form-status'}>
          {message?.text ?? ''}
        </p>
      </form>
    </section>
  );
}

/** The daily digest, then each collaboration notification's channels: each box is saved when changed. */
function NotificationSettings() {
  const rows = notificationRows(viewData.value.notificationSettings, savingNotificationChoices.value);
  if (rows.length === 0) return <p>Loading notification settings…</p>;
  const digest = rows.find((row) => row.type === DAILY_DIGEST);
  const others = rows.filter((row) => row.type !== DAILY_DIGEST);
  return (
    <>
      {digest ? (
        <section aria-labelledby="settings-digest">
          <h2 id="settings-digest">Daily digest</h2>
          <label>
            <input type="checkbox" checked={digest.email} aria-describedby="settings-digest-about" onChange={(event) => void saveNotificationSetting(DAILY_DIGEST, 'email', event.currentTarget.checked)} /> Daily digest by email
          </label>
          <p id="settings-digest-about" class="hint">
            A morning mail of the tasks due today and overdue, after 07:00 in your time zone, on days with something due.
          </p>
        </section>
      ) : null}
      <section aria-labelledby="settings-notifications">
        <h2 id="settings-notifications">Notifications</h2>
        <table class="settings-table" aria-labelledby="settings-notifications">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Email</th>
              <th scope="col">Push</th>
            </tr>
          </thead>
          <tbody>
            {others.map((row) => (
              <tr key={row.type}>
                <th scope="row">{row.label}</th>
                <td>
                  <input type="checkbox" checked={row.email} aria-label={`${row.label}: email`} onChange={(event) => void saveNotificationSetting(row.type, 'email', event.currentTarget.checked)} />
                </td>
                <td>
                  {row.push === null ? null : (
                    <input type="checkbox" checked={row.push} aria-label={`${row.label}: push`} onChange={(event) => void saveNotificationSetting(row.type, 'push', event.currentTarget.checked)} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

export function SettingsPage() {
  return (
    <>
      <h1 id="view-title" tabIndex={-1}>
        Settings
      </h1>
      {viewData.value.user ? <ProfileSettings /> : <p>Loading…</p>}
      <NotificationSettings />
    </>
  );
}
