import type { REMINDER_UPDATE_ARGS } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import type { z } from 'zod';
import { type Item, type ItemDates, type ReminderFields, type ReminderRepository, type ReminderType } from '@doable/sync-domain';
import type { CommandContext } from '../../command-handler';

/**
 * The arguments reminder_add and reminder_update share (v1 names; `service` is the legacy
 * clients' delivery channel, kept for them to read back) are the reminder table's, all optional
 * (reminder_add adds its `item_id`): the reminder a command stores is made of them here.
 */
export type ReminderArgs = z.infer<z.ZodObject<typeof REMINDER_UPDATE_ARGS>>;

const DEFAULT_RADIUS = 100;

function missing(argument: string): never {
  throw new DomainError('ARGUMENT_MISSING', `Required argument is missing: ${argument}`, { argument });
}

function invalid(argument: string, message: string): never {
  throw new DomainError('INVALID_ARGUMENT_VALUE', message, { argument });
}

/** Without `type`: relative when an offset is given, absolute when a due is, else as it was, else location when a place is. */
function typeOf(args: ReminderArgs, current: ReminderFields | undefined): ReminderType {
  if (args.type) return args.type;
  if (args.minute_offset !== undefined) return 'relative';
  if (args.due !== undefined && args.due !== null) return 'absolute';
  if (current) return current.type;
  if (args.loc_lat !== undefined || args.loc_long !== undefined || args.name !== undefined) return 'location';
  return missing('due');
}

const hasTime = (date: string | undefined) => date?.includes('T') === true;

/**
 * The complete stored fields of a reminder from a command's arguments, over the current ones
 * for an update: each type gets the fields it needs, and nothing else is kept.
 */
export async function reminderFields(
  args: ReminderArgs,
  current: ReminderFields | undefined,
  item: Item,
  context: CommandContext,
  dates: ItemDates,
  reminders: ReminderRepository,
): Promise<ReminderFields> {
  const type = typeOf(args, current);
  if (current && (current.type === 'location') !== (type === 'location')) {
    // The two kinds are read through different resource types: a switch would leave a stale copy behind.
    invalid('type', 'A location reminder cannot become a time reminder, or the reverse');
  }
  const previous = current?.type === type ? current : undefined;
  let notifyUid = previous?.notify_uid ?? current?.notify_uid ?? context.userId;
  if (args.notify_uid !== undefined) {
    notifyUid = String(args.notify_uid);
    if (!/^\d{1,18}$/.test(notifyUid) || !(await reminders.isProjectMember(context.tx.manager, item.project_id, notifyUid))) {
      invalid('notify_uid', 'notify_uid must be a collaborator of the task');
    }
  }
  const fields: ReminderFields = {
    notify_uid: notifyUid,
    type,
    due: null,
    minute_offset: null,
    is_urgent: false,
    name: null,
    loc_lat: null,
    loc_long: null,
    loc_trigger: null,
    radius: null,
    // Kept across updates that do not name it, whatever the type: it is how the reminder is sent.
    service: args.service ?? current?.service ?? null,
  };
  switch (type) {
    case 'relative': {
      const changed = args.type !== undefined || args.minute_offset !== undefined || !previous;
      fields.minute_offset = args.minute_offset ?? previous?.minute_offset ?? missing('minute_offset');
      if (changed && !hasTime(item.due?.date)) invalid('item_id', 'A relative reminder needs the task to have a due date with a time');
      fields.is_urgent = args.is_urgent ?? current?.is_urgent ?? false;
      return fields;
    }
    case 'absolute': {
      const due = dates.due(args.due ?? undefined, context.user);
      if (due && !hasTime(due.date)) invalid('due', 'An absolute reminder needs a due date with a time');
      fields.due = due ?? previous?.due ?? missing('due');
      fields.is_urgent = args.is_urgent ?? current?.is_urgent ?? false;
      return fields;
    }
    case 'location':
      fields.name = args.name ?? previous?.name ?? missing('name');
      fields.loc_lat = args.loc_lat ?? previous?.loc_lat ?? missing('loc_lat');
      fields.loc_long = args.loc_long ?? previous?.loc_long ?? missing('loc_long');
      fields.loc_trigger = args.loc_trigger ?? previous?.loc_trigger ?? missing('loc_trigger');
      fields.radius = args.radius ?? previous?.radius ?? DEFAULT_RADIUS;
      return fields;
  }
}
