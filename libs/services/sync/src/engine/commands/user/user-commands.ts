import { DomainError } from '@doable/shared-errors';
import type { UserProfileRepository } from '../../../users/user-profile.repository';
import { parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../command-handler';
import { checkUrgentReminderDevice, refuseCredentialChange, updateGoalsArgs, userSettingsArgs, userUpdateArgs } from './user-args';

/*
 * The user's own profile, goals and settings, all on the user's row (already locked by the
 * executor). Each write stamps the row's version with the command's, so the next incremental
 * sync carries the user; a settings write also stamps settings_version, which carries
 * user_settings. A command that changes nothing leaves the row alone.
 */

/** user_update: profile and preferences. Credential changes are refused (see refuseCredentialChange). */
export class UserUpdateCommand implements CommandHandler {
  readonly type = 'user_update';

  constructor(private readonly profiles: UserProfileRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(userUpdateArgs, rawArgs);
    const profile = await this.profiles.find(context.tx.manager, context.userId);
    if (!profile) throw new DomainError('USER_NOT_FOUND');
    refuseCredentialChange(args, profile.email);
    checkUrgentReminderDevice(args.urgent_reminder_device);
    const theme = args.theme_id ?? args.theme;
    const changes = {
      full_name: args.full_name,
      timezone: args.timezone,
      start_page: args.start_page,
      start_day: args.start_day,
      next_week: args.next_week,
      weekend_start_day: args.weekend_start_day,
      time_format: args.time_format,
      date_format: args.date_format,
      sort_order: args.sort_order,
      auto_reminder: args.auto_reminder,
      theme_id: theme === undefined ? undefined : String(theme),
      beta: args.beta === undefined ? undefined : Number(args.beta),
    };
    if (Object.values(changes).some((value) => value !== undefined)) {
      await this.profiles.update(context.tx.manager, context.userId, changes, context.version, false);
    }
    return {};
  }
}

/** update_goals: karma goals; ignore_days is the user object's days_off. */
export class UpdateGoalsCommand implements CommandHandler {
  readonly type = 'update_goals';

  constructor(private readonly profiles: UserProfileRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(updateGoalsArgs, rawArgs);
    const changes = {
      daily_goal: args.daily_goal,
      weekly_goal: args.weekly_goal,
      days_off: args.ignore_days === undefined ? undefined : [...new Set(args.ignore_days)].sort((a, b) => a - b),
      vacation_mode: args.vacation_mode,
      karma_disabled: args.karma_disabled,
    };
    if (Object.values(changes).some((value) => value !== undefined)) {
      await this.profiles.update(context.tx.manager, context.userId, changes, context.version, false);
    }
    return {};
  }
}

/** user_settings_update: the user_settings resource's booleans. */
export class UserSettingsUpdateCommand implements CommandHandler {
  readonly type = 'user_settings_update';

  constructor(private readonly profiles: UserProfileRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const changes = parseArgs(userSettingsArgs, rawArgs);
    if (Object.values(changes).some((value) => value !== undefined)) {
      await this.profiles.update(context.tx.manager, context.userId, changes, context.version, true);
    }
    return {};
  }
}

export function userCommands(profiles: UserProfileRepository): CommandHandler[] {
  return [new UserUpdateCommand(profiles), new UpdateGoalsCommand(profiles), new UserSettingsUpdateCommand(profiles)];
}
