import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { ItemDates, ItemRepository, LocationRepository, type ReminderFields, ReminderRepository } from '@doable/sync-domain';
import { idArg, parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { loadItem } from '../items/item-access';
import { loadReminder } from './reminder-access';
import { type ReminderArgs, reminderFields } from './reminder-fields';
import { inProject, ownObjects, REMINDER_ADD_ARGS, REMINDER_UPDATE_ARGS } from '@doable/contracts-sync';

/**
 * A location reminder set on a place (added, or updated with a name or coordinates) puts that
 * place first in the acting user's recent places: they chose it, whoever the reminder notifies.
 */
async function rememberPlace(locations: LocationRepository, context: CommandContext, fields: ReminderFields, args?: ReminderArgs): Promise<void> {
  if (fields.type !== 'location' || fields.name === null || fields.loc_lat === null || fields.loc_long === null) return;
  if (args && args.name === undefined && args.loc_lat === undefined && args.loc_long === undefined) return;
  await locations.record(context.tx.manager, context.userId, { name: fields.name, loc_lat: fields.loc_lat, loc_long: fields.loc_long }, context.version);
}

/**
 * reminder_add (+temp_id): a time or location reminder on a task the user can see. Needs the
 * acting user's `reminders` feature, and room among the reminders of the user it notifies:
 * max_reminders_time (absolute, relative) or max_reminders_location of that user's plan. A
 * reminder is its receiver's (theirs to see fire): the acting user themselves unless it is set
 * for a collaborator, who then holds it against their own plan. Anyone sharing a project with
 * that user may add one, so the count is taken under a lock on them.
 */
@Injectable()
export class ReminderAddCommand implements CommandHandler {
  readonly type = 'reminder_add';
  readonly policy = inProject('edit', { quantity: ['max_reminders_time', 'max_reminders_location'] });
  private readonly schema = z.object(REMINDER_ADD_ARGS);

  constructor(
    private readonly reminders: ReminderRepository,
    private readonly items: ItemRepository,
    private readonly dates: ItemDates,
    private readonly locations: LocationRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    await context.plan.requireFeature('reminders');
    const item = await loadItem(this.items, context, args.item_id, 'item_id');
    const fields = await reminderFields(args, undefined, item, context, this.dates, this.reminders);
    const kind = fields.type === 'location' ? 'location' : 'time';
    await context.plan.requireRoom(kind === 'location' ? 'max_reminders_location' : 'max_reminders_time', {
      planOf: fields.notify_uid,
      count: () => this.reminders.countNotifying(context.tx.manager, fields.notify_uid, kind),
      lockKey: fields.notify_uid,
    });
    const reminder = await this.reminders.insert(context.tx.manager, { ...fields, projectId: item.project_id, itemId: item.id }, context.version);
    await rememberPlace(this.locations, context, fields);
    context.touch(item.project_id);
    return { createdId: reminder.id };
  }
}

/** reminder_update: any of the reminder's fields; a time reminder stays a time reminder, a location one a location one. */
@Injectable()
export class ReminderUpdateCommand implements CommandHandler {
  readonly type = 'reminder_update';
  readonly policy = inProject('edit');
  private readonly schema = z.object({ id: idArg, ...REMINDER_UPDATE_ARGS });

  constructor(
    private readonly reminders: ReminderRepository,
    private readonly items: ItemRepository,
    private readonly dates: ItemDates,
    private readonly locations: LocationRepository,
  ) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(this.schema, rawArgs);
    const reminder = await loadReminder(this.reminders, context, args.id);
    const item = await loadItem(this.items, context, reminder.item_id, 'item_id');
    const fields = await reminderFields(args, reminder, item, context, this.dates, this.reminders);
    await this.reminders.update(context.tx.manager, [reminder.id], fields, context.version);
    await rememberPlace(this.locations, context, fields, args);
    context.touch(reminder.project_id);
    return {};
  }
}

/** reminder_delete: the reminder becomes a tombstone. */
@Injectable()
export class ReminderDeleteCommand implements CommandHandler {
  readonly type = 'reminder_delete';
  readonly policy = inProject('edit');
  private readonly schema = z.object({ id: idArg });

  constructor(private readonly reminders: ReminderRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const reminder = await loadReminder(this.reminders, context, parseArgs(this.schema, rawArgs).id);
    await this.reminders.update(context.tx.manager, [reminder.id], { is_deleted: true }, context.version);
    context.touch(reminder.project_id);
    return {};
  }
}

/**
 * clear_locations: empties the user's list of recent places ("Clears the locations list, which is
 * used for location reminders"). Reminders are left alone: deleting them would lose data.
 */
@Injectable()
export class ClearLocationsCommand implements CommandHandler {
  readonly type = 'clear_locations';
  readonly policy = ownObjects();

  constructor(private readonly locations: LocationRepository) {}

  async run(context: CommandContext): Promise<CommandOutcome> {
    await this.locations.clear(context.tx.manager, context.userId, context.version);
    return {};
  }
}

export const REMINDER_COMMANDS = [ReminderAddCommand, ReminderUpdateCommand, ReminderDeleteCommand, ClearLocationsCommand];
