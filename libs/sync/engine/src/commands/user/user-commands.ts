import { Injectable } from '@nestjs/common';
import type { Principal } from '@doable/contracts-common';
import { AuthSubjects } from '@doable/contracts-auth';
import { DomainError } from '@doable/shared-errors';
import { ServiceClient } from '@doable/shared-transport';
import { sharedProjectIds, UserProfileRepository } from '@doable/sync-domain';
import { parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';
import { changesCredentials, checkUrgentReminderDevice, updateGoalsArgs, userSettingsArgs, userUpdateArgs } from './user-args';
import { ownObjects } from '@doable/contracts-sync';

/*
 * The user's own profile, goals and settings, all on the user's row (already locked by the
 * executor). Each write stamps the row's version with the command's, so the next incremental
 * sync carries the user; a settings write also stamps settings_version, which carries
 * user_settings. A command that changes nothing leaves the row alone.
 */

/** What auth-oauth answered for a credential change: the account's email after it. */
interface CredentialChange {
  readonly email: string;
}

/**
 * user_update: profile and preferences, and the email and password, which auth-oauth owns.
 * Those are changed first, before the transaction and only once every other argument has been
 * checked, so a command refused for a bad preference never changes a credential.
 */
@Injectable()
export class UserUpdateCommand implements CommandHandler {
  readonly type = 'user_update';
  /** How the account logs in: only its own personal token may change it (an app could otherwise set a password on an account that has none). */
  readonly policy = ownObjects({ personalTokenArgs: ['email', 'password'] });

  constructor(
    private readonly profiles: UserProfileRepository,
    private readonly services: ServiceClient,
  ) {}

  async prepare(principal: Principal, rawArgs: Record<string, unknown>, uuid: string): Promise<CredentialChange | undefined> {
    const args = parseArgs(userUpdateArgs, rawArgs);
    checkUrgentReminderDevice(args.urgent_reminder_device);
    if (!changesCredentials(args)) return undefined;
    return this.services.request(AuthSubjects.changeCredentials, {
      userId: principal.userId,
      currentPassword: args.current_password ?? null,
      email: args.email,
      password: args.password,
      // A resent request's late copy then changes nothing there (it ran once already).
      uuid,
    });
  }

  async run(context: CommandContext, rawArgs: Record<string, unknown>, prepared?: unknown): Promise<CommandOutcome> {
    const args = parseArgs(userUpdateArgs, rawArgs);
    const profile = await this.profiles.find(context.tx.manager, context.userId);
    if (!profile) throw new DomainError('USER_NOT_FOUND');
    checkUrgentReminderDevice(args.urgent_reminder_device);
    const credentials = prepared as CredentialChange | undefined;
    const theme = args.theme_id ?? args.theme;
    const changes = {
      email: credentials && credentials.email !== profile.email ? credentials.email : undefined,
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
      // auth-oauth has just set a password: clients read has_password to know they must send current_password next time.
      has_password: credentials && args.password !== undefined ? true : undefined,
    };
    if (Object.values(changes).some((value) => value !== undefined)) {
      await this.profiles.update(context.tx.manager, context.userId, changes, context.version, false);
    }
    // What collaborators show of the user changed: the people they share projects with see it in their next sync.
    if (changes.email !== undefined || changes.full_name !== undefined || changes.timezone !== undefined) {
      context.touch(...(await sharedProjectIds(context.tx.manager, context.userId)));
    }
    return {};
  }
}

/** update_goals: karma goals; ignore_days is the user object's days_off. */
@Injectable()
export class UpdateGoalsCommand implements CommandHandler {
  readonly type = 'update_goals';
  readonly policy = ownObjects();

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
@Injectable()
export class UserSettingsUpdateCommand implements CommandHandler {
  readonly type = 'user_settings_update';
  readonly policy = ownObjects();

  constructor(private readonly profiles: UserProfileRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const changes = parseArgs(userSettingsArgs, rawArgs);
    if (Object.values(changes).some((value) => value !== undefined)) {
      await this.profiles.update(context.tx.manager, context.userId, changes, context.version, true);
    }
    return {};
  }
}

export const USER_COMMANDS = [UserUpdateCommand, UpdateGoalsCommand, UserSettingsUpdateCommand];
