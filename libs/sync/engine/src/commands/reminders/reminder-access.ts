import { DomainError } from '@doable/shared-errors';
import { type Reminder, type ReminderRepository } from '@doable/sync-domain';
import type { CommandContext } from '../../command-handler';

/** The reminder an argument names, if the user can see its task; REMINDER_NOT_FOUND otherwise. */
export async function loadReminder(reminders: ReminderRepository, context: CommandContext, value: unknown, argument = 'id'): Promise<Reminder> {
  const id = await context.resolveId(value, argument);
  const reminder = await reminders.findVisibleForUpdate(context.tx.manager, context.userId, id);
  if (!reminder) throw new DomainError('REMINDER_NOT_FOUND', 'Reminder not found', { argument, id });
  await context.requireAccess(reminder.project_id);
  return reminder;
}
