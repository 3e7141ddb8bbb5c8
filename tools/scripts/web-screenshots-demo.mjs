// The demo account the docs' screenshots show (web-screenshots.mjs), made only through the
// public APIs a client has: REST api/v1 for most objects, Sync API commands for what only they
// do (the account's name and password, sharing, the invitation's answer, a reminder). Names are
// fixed and dates are days from today (UTC, as the account and the browser run), so each run
// draws the same pictures, shifted to its own day.
import { randomUUID } from 'node:crypto';

/** The person signed in for the screenshots (the system's first account, renamed). */
export const OWNER = { email: 'maya@example.com', name: 'Maya Lindqvist', password: 'screenshots of a quiet Tuesday' };
/** The person Maya shares a project with (an account the CLI creates, as an operator would). */
export const FRIEND = { email: 'jonas@example.com', name: 'Jonas Berg', password: 'screenshots of a busy Wednesday' };

/** The shared project, and its task whose comments the project picture opens. */
export const SHARED_PROJECT = 'Product launch';
export const COMMENTED_TASK = 'Draft the launch announcement';
/** A row each view must show before it is taken (the full sync has then been drawn). */
export const ROWS = { today: 'Pay the electricity bill', upcoming: 'Record the demo video', project: COMMENTED_TASK };

/** YYYY-MM-DD, `days` from today in UTC. */
export function day(days) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** One api/v1 call with a person's token; answers the parsed body, throws on anything but 2xx. */
async function api(baseUrl, token, method, path, body) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Sync API commands in one request; throws unless every one answered ok. */
async function commands(baseUrl, token, list) {
  const sent = list.map((command) => ({ uuid: randomUUID(), ...command }));
  const answer = await api(baseUrl, token, 'POST', '/api/v1/sync', { commands: sent });
  for (const command of sent) {
    const status = answer.sync_status?.[command.uuid];
    if (status !== 'ok') throw new Error(`${command.type} answered ${JSON.stringify(status)}`);
  }
  return answer;
}

/** Polls `read` (a few seconds at most) until it answers something: events between services are asynchronous. */
async function eventually(read, what) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A new account's profile and Inbox are made from its user-created event: wait for them. */
export function profileReady(baseUrl, token) {
  return eventually(async () => {
    const answer = await api(baseUrl, token, 'POST', '/api/v1/sync', { sync_token: '*', resource_types: ['user', 'projects'] });
    return answer.user?.id && answer.projects?.some((project) => project.inbox_project) ? answer.user : undefined;
  }, 'the new account\'s profile');
}

/** The owner's name and password (the first account has neither a chosen name nor a password). */
export async function nameOwner(baseUrl, token) {
  await commands(baseUrl, token, [{ type: 'user_update', args: { full_name: OWNER.name, password: OWNER.password, timezone: 'UTC' } }]);
}

/** Shares a project the way people do: invited by email, accepted with the secret of the invitee's notification. */
async function share(baseUrl, owner, friend, project) {
  await commands(baseUrl, owner, [{ type: 'share_project', args: { project_id: project.id, email: FRIEND.email } }]);
  // The notification names the project (project_name), not its id: the friend has one invitation.
  const invitation = await eventually(async () => {
    const answer = await api(baseUrl, friend, 'POST', '/api/v1/sync', { sync_token: '*', resource_types: ['live_notifications'] });
    return answer.live_notifications.find((n) => n.notification_type === 'share_invitation_sent' && n.project_name === project.name && n.invitation_secret);
  }, 'the invitation\'s notification');
  await commands(baseUrl, friend, [{ type: 'accept_invitation', args: { invitation_id: invitation.invitation_id, invitation_secret: invitation.invitation_secret } }]);
}

/**
 * Fills the owner's account: three projects (one shared with the friend, with sections), labels,
 * tasks overdue, due today and in the coming days with priorities, labels and assignees, a
 * subtask, a conversation in comments and a reminder. `owner` and `friend` are API tokens.
 * Answers the shared project's id and the announcement's (the task picture's).
 */
export async function seedDemoData(baseUrl, owner, friend) {
  const rest = (method, path, body, token = owner) => api(baseUrl, token, method, path, body);
  const ownerId = (await profileReady(baseUrl, owner)).id;
  const friendId = (await profileReady(baseUrl, friend)).id;

  for (const [name, color] of [['errands', 'orange'], ['office', 'blue'], ['deep-work', 'violet'], ['waiting', 'grey']]) {
    await rest('POST', '/api/v1/labels', { name, color });
  }
  const home = await rest('POST', '/api/v1/projects', { name: 'Home', color: 'green' });
  const launch = await rest('POST', '/api/v1/projects', { name: SHARED_PROJECT, color: 'blue' });
  const reading = await rest('POST', '/api/v1/projects', { name: 'Reading list', color: 'lavender' });
  await share(baseUrl, owner, friend, launch);

  const section = async (project, name) => (await rest('POST', '/api/v1/sections', { name, project_id: project.id })).id;
  const plan = await section(launch, 'Plan');
  const build = await section(launch, 'Build');
  const ship = await section(launch, 'Ship');

  // API priorities: 4 is the most urgent (shown as Priority 1), 1 the default.
  const task = (content, fields) => rest('POST', '/api/v1/tasks', { content, ...fields });
  const inbox = (await rest('GET', '/api/v1/projects')).results.find((project) => project.inbox_project).id;
  await task('Call the bank about the new card', { project_id: inbox, priority: 3, due_date: day(-2) });
  await task('Book a dentist appointment', { project_id: inbox, due_date: day(0) });
  await task(ROWS.today, { project_id: home.id, priority: 4, labels: ['errands'], due_date: day(-1) });
  await task('Water the plants', { project_id: home.id, due_string: 'every 3 days' });
  await task('Buy a birthday present for Lea', { project_id: home.id, priority: 2, labels: ['errands'], due_date: day(2) });
  await task('Fix the dripping kitchen tap', { project_id: home.id, due_date: day(5) });
  const standUp = await task('Launch stand-up', { project_id: launch.id, section_id: plan, priority: 2, labels: ['office'], due_datetime: `${day(1)}T09:30:00Z` });
  const announcement = await task(COMMENTED_TASK, {
    project_id: launch.id,
    section_id: plan,
    priority: 4,
    labels: ['deep-work'],
    due_date: day(0),
    duration: 90,
    duration_unit: 'minute',
    // Markdown, as the task view renders it (the task picture shows it).
    description: '## Outline\n\n- **Why now**: the launch date and what changes for users\n- What is new, in three lines\n- Pricing, with a link to the [pricing page](https://example.com/pricing)\n\nKeep it under 300 words.',
  });
  await task('Collect quotes from the beta users', { parent_id: announcement.id });
  await task('Pick the header picture', { parent_id: announcement.id, labels: ['office'] });
  await task('Review the pricing page copy', { project_id: launch.id, section_id: plan, priority: 3, labels: ['office'], due_date: day(0), assignee_id: friendId });
  await task('Fix the typo in the sign-up email', { project_id: launch.id, section_id: build, priority: 3, due_date: day(-1), assignee_id: friendId });
  const video = await task(ROWS.upcoming, { project_id: launch.id, section_id: build, priority: 2, due_date: day(1), assignee_id: ownerId });
  await task('Write the video script', { parent_id: video.id, due_date: day(1) });
  await task('Update the screenshots in the README', { project_id: launch.id, section_id: build, labels: ['deep-work'], due_date: day(3) });
  await task('Send the newsletter', { project_id: launch.id, section_id: ship, priority: 3, labels: ['waiting'], due_date: day(7), assignee_id: friendId });
  await task('Post the launch on social media', { project_id: launch.id, section_id: ship, due_date: day(7) });
  await task('Finish "The Pragmatic Programmer"', { project_id: reading.id, due_date: day(4) });
  await task('Read "Deep Work", chapter 3', { project_id: reading.id, labels: ['deep-work'], due_date: day(6) });

  // A short conversation on the announcement, one comment after the other (their order is the picture's).
  const comment = (content, token) => rest('POST', '/api/v1/comments', { task_id: announcement.id, content }, token);
  await comment('I put a first outline in the shared doc. Could you take the intro?', friend);
  await comment('Yes, I will have it ready this afternoon.', owner);
  await comment('Great, then I will do the pricing part.', friend);

  await commands(baseUrl, owner, [{ type: 'reminder_add', temp_id: randomUUID(), args: { item_id: standUp.id, type: 'relative', minute_offset: 15 } }]);
  return { sharedProjectId: launch.id, taskId: announcement.id };
}
