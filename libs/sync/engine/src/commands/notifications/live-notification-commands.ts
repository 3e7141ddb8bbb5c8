import { Injectable } from '@nestjs/common';
import type { Principal } from '@doable/contracts-common';
import { type LiveNotificationCommandType, liveNotificationCommandSchema, NotificationsSubjects } from '@doable/contracts-notifications';
import { ownObjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { ServiceClient } from '@doable/shared-transport';
import type { CommandContext, CommandHandler, CommandOutcome } from '../../command-handler';

/**
 * live_notifications_set_last_read, _mark_read, _mark_read_all and _mark_unread (sync-interface
 * §4.2): notification state is the notifications service's. The command is validated here (at
 * the edge) and again there, forwarded before the transaction, and then recorded as a change
 * of the user, so the next incremental sync asks for notifications again and sees the new state.
 */
abstract class LiveNotificationCommand implements CommandHandler {
  /** The user's own notifications. */
  readonly policy = ownObjects();

  protected constructor(
    readonly type: LiveNotificationCommandType,
    private readonly services: ServiceClient,
  ) {}

  async prepare(principal: Principal, args: Record<string, unknown>, uuid: string): Promise<void> {
    const parsed = liveNotificationCommandSchema.safeParse({ type: this.type, args });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const argument = String(issue?.path.at(-1) ?? 'args');
      throw new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${argument}`, { argument });
    }
    // The uuid makes a resent request's late copy change nothing there (it ran once already).
    await this.services.request(NotificationsSubjects.liveNotificationCommand, { userId: principal.userId, uuid, command: parsed.data });
  }

  run(context: CommandContext): Promise<CommandOutcome> {
    // The state changed elsewhere; this change only moves the user's high-water mark.
    context.touch();
    return Promise.resolve({});
  }
}

// One class per command type, so each is a provider Nest builds (the type is the class's, not an argument).
@Injectable()
export class LiveNotificationsSetLastReadCommand extends LiveNotificationCommand {
  constructor(services: ServiceClient) {
    super('live_notifications_set_last_read', services);
  }
}

@Injectable()
export class LiveNotificationsMarkReadCommand extends LiveNotificationCommand {
  constructor(services: ServiceClient) {
    super('live_notifications_mark_read', services);
  }
}

@Injectable()
export class LiveNotificationsMarkReadAllCommand extends LiveNotificationCommand {
  constructor(services: ServiceClient) {
    super('live_notifications_mark_read_all', services);
  }
}

@Injectable()
export class LiveNotificationsMarkUnreadCommand extends LiveNotificationCommand {
  constructor(services: ServiceClient) {
    super('live_notifications_mark_unread', services);
  }
}

/** Every live notification command: one per LIVE_NOTIFICATION_COMMANDS type (command-providers.spec checks). */
export const LIVE_NOTIFICATION_HANDLERS = [LiveNotificationsSetLastReadCommand, LiveNotificationsMarkReadCommand, LiveNotificationsMarkReadAllCommand, LiveNotificationsMarkUnreadCommand];
