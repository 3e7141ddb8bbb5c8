// Drives the unmodified official SDK (@doist/todoist-sdk 17, ESM) through comments and reminders
// and prints what it saw as one JSON line. Every sync response passes the SDK's own zod
// validation (NoteSchema for notes and project_notes, SyncReminderSchema, LocationReminderSchema,
// and `locations` as record<string, unknown>[]), tombstones included, so a shape it rejects makes
// this script fail.
// Env: DOABLE_URL (base URL), DOABLE_TOKEN (API token).
import { TodoistApi, createCommand } from '@doist/todoist-sdk';

const api = new TodoistApi(process.env.DOABLE_TOKEN, { baseUrl: process.env.DOABLE_URL });
const types = ['all', 'reminders_location'];
const report = {};

const first = await api.sync({ syncToken: '*', resourceTypes: types });
report.first = { locations: first.locations };
const write = await api.sync({
  syncToken: first.syncToken,
  resourceTypes: types,
  commands: [
    createCommand('project_add', { name: 'SDK comments' }, 'p'),
    createCommand('item_add', { content: 'SDK task', projectId: 'p', due: { string: 'tomorrow at 9am' } }, 't'),
    createCommand(
      'note_add',
      { itemId: 't', content: 'Task comment', fileAttachment: { resourceType: 'file', fileName: 'a.txt', fileUrl: 'https://files.example.test/a.txt', fileType: 'text/plain', fileSize: 3, uploadState: 'completed' } },
      'tn',
    ),
    createCommand('note_add', { projectId: 'p', content: 'Project comment' }, 'pn'),
    createCommand('note_reaction_add', { id: 'pn', reaction: '👍' }),
    createCommand('reminder_add', { itemId: 't', minuteOffset: 30 }, 'relative'),
    createCommand('reminder_add', { itemId: 't', type: 'absolute', due: { string: 'tomorrow at 8am' } }, 'absolute'),
    createCommand('reminder_add', { itemId: 't', type: 'location', name: 'Office', locLat: '52.52', locLong: '13.40', locTrigger: 'on_enter', radius: 150 }, 'location'),
  ],
});
const taskNote = write.notes?.[0];
const projectNote = write.projectNotes?.[0];
report.write = {
  statuses: Object.values(write.syncStatus ?? {}),
  notes: write.notes?.map((note) => ({ content: note.content, hasItemId: 'itemId' in note, hasProjectId: 'projectId' in note, file: note.fileAttachment?.fileName ?? null })),
  projectNotes: write.projectNotes?.map((note) => ({ content: note.content, hasItemId: 'itemId' in note, hasProjectId: 'projectId' in note, reactions: note.reactions })),
  reminders: write.reminders?.map((reminder) => reminder.type).sort(),
  locationReminders: write.remindersLocation?.map((reminder) => ({ name: reminder.name, radius: reminder.radius })),
  locations: write.locations,
};

const remove = await api.sync({
  syncToken: write.syncToken,
  resourceTypes: types,
  commands: [createCommand('note_delete', { id: projectNote.id }), createCommand('item_delete', { id: taskNote.itemId })],
});
report.remove = {
  statuses: Object.values(remove.syncStatus ?? {}),
  notes: remove.notes?.map((note) => note.isDeleted),
  projectNotes: remove.projectNotes?.map((note) => note.isDeleted),
  reminders: remove.reminders?.map((reminder) => `${reminder.type}:${reminder.isDeleted}`).sort(),
  locationReminders: remove.remindersLocation?.map((reminder) => reminder.isDeleted),
  locations: remove.locations ?? 'unchanged',
};

// The recent places outlive the reminders; clear_locations empties them.
const places = await api.sync({ syncToken: '*', resourceTypes: ['locations'] });
const clear = await api.sync({ syncToken: remove.syncToken, resourceTypes: ['locations'], commands: [createCommand('clear_locations', {})] });
report.clear = { before: places.locations, statuses: Object.values(clear.syncStatus ?? {}), locations: clear.locations };

process.stdout.write(`${JSON.stringify(report)}\n`);
