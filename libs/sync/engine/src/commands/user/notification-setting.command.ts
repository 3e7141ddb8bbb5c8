import { Injectable } from '@nestjs/common';
import { isEmailOnlySetting, NOTIFICATION_SERVICES, NOTIFICATION_SETTING_TYPES, ownObjects, SyncEvents } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { UserProfileRepository } from '@doable/sync-domain';
import { z } from 'zod';
import { parseArgs } from '../../command-args';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';

/** The endpoints' `dont_notify`: JSON's boolean or 0/1, or a form field's text of either. */
const dontNotify = z.union([z.boolean(), z.literal(0), z.literal(1), z.enum(['true', 'false', '1', '0'])]).transform((value) => value === true || value === 1 || value === 'true' || value === '1');

export const notificationSettingArgs = z
  .object({
    notification_type: z.enum(NOTIFICATION_SETTING_TYPES),
    service: z.enum(NOTIFICATION_SERVICES),
    dont_notify: dontNotify,
  })
  // The daily digest is a mail: a push choice for it would be stored and never mean anything.
  .refine((args) => !(args.service === 'push' && isEmailOnlySetting(args.notification_type)), { path: ['service'], message: 'This notification type is mailed only' });

/**
 * update_notification_setting (v7–v9 `notification_settings/update`, api/v1 `PUT
 * notification_setting`: public-api-facts §1.4): one type's one service on or off, for the
 * caller only. Internal (CommandExecutor.runInternal): the generations serve it as an endpoint,
 * never as a Sync API command; running it as a command gives it the user's lock, a version,
 * the scopes check and the uuid log like any write. Its event carries the settings whole (with
 * the address) to the notifications service, which mails by them.
 */
@Injectable()
export class UpdateNotificationSettingCommand implements CommandHandler {
  readonly type = 'update_notification_setting';
  readonly policy = ownObjects();

  constructor(private readonly profiles: UserProfileRepository) {}

  async run(context: CommandContext, rawArgs: Record<string, unknown>): Promise<CommandOutcome> {
    const args = parseArgs(notificationSettingArgs, rawArgs);
    const manager = context.tx.manager;
    await this.profiles.setNotificationSetting(manager, context.userId, args.notification_type, args.service, !args.dont_notify, context.version);
    const profile = await this.profiles.find(manager, context.userId);
    if (!profile) throw new DomainError('USER_NOT_FOUND');
    // The notifications service mails by these settings: it keeps its own copy, from this event.
    await context.tx.emit(SyncEvents.notificationSettingsChanged, { userId: profile.id, version: context.version, email: profile.email, lang: profile.lang, settings: profile.notification_settings });
    return {};
  }
}
