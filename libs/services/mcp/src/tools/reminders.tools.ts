import { z } from 'zod';
import type { JsonObject } from '../calls/domain-calls';
import { ToolFailure } from '../calls/tool-failure';
import { apiObjects, id } from './shapes';
import { addThroughSync, readAll, readByIds } from './synced';
import { defineTool } from './tool-definition';

const when = {
  minuteOffset: z.number().int().min(0).max(43200).optional().describe('Minutes before the task is due (a relative reminder)'),
  dueDate: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?Z?$/).optional().describe('A fixed time (an absolute reminder)'),
};

function reminderArgs(reminder: { minuteOffset?: number; dueDate?: string }): JsonObject {
  if ((reminder.minuteOffset === undefined) === (reminder.dueDate === undefined)) throw new ToolFailure('INVALID_ARGUMENT_VALUE', 'Give exactly one of minuteOffset and dueDate');
  return reminder.minuteOffset !== undefined ? { type: 'relative', minute_offset: reminder.minuteOffset } : { type: 'absolute', due: { date: reminder.dueDate } };
}

export const addReminders = defineTool({
  name: 'add-reminders',
  title: 'Add reminders',
  description: 'Adds reminders to tasks: minutes before the due time, or at a fixed time.',
  input: { reminders: z.array(z.object({ taskId: id, ...when })).min(1).max(25) },
  output: { reminders: apiObjects },
  run: async (calls, { reminders }) => ({ reminders: await addThroughSync(calls, 'reminders', 'reminder_add', reminders.map((reminder) => ({ item_id: reminder.taskId, ...reminderArgs(reminder) }))) }),
});

export const updateReminders = defineTool({
  name: 'update-reminders',
  title: 'Update reminders',
  description: 'Moves reminders to another offset or time.',
  input: { reminders: z.array(z.object({ id, ...when })).min(1).max(25) },
  output: { reminders: apiObjects },
  async run(calls, { reminders }) {
    await calls.syncAll(reminders.map((reminder) => ({ type: 'reminder_update', args: { id: reminder.id, ...reminderArgs(reminder) } })));
    return { reminders: await readByIds(calls, 'reminders', reminders.map((reminder) => reminder.id)) };
  },
});

export const findReminders = defineTool({
  name: 'find-reminders',
  title: 'Find reminders',
  description: 'Reminders, all or those of one task.',
  readOnly: true,
  input: { taskId: id.optional() },
  output: { reminders: apiObjects },
  async run(calls, args) {
    const reminders = await readAll(calls, 'reminders');
    return { reminders: args.taskId ? reminders.filter((reminder) => reminder['item_id'] === args.taskId) : reminders };
  },
});

export const REMINDER_TOOLS = [addReminders, updateReminders, findReminders];
