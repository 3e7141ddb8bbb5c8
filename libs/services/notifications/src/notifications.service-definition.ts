import { type LiveNotificationCommand, NotificationsSubjects, type LiveNotificationsReply } from '@doable/contracts-notifications';
import { RpcController, type ServiceDefinition } from '@doable/shared-runtime';
import { Handles } from '@doable/shared-transport';
import { Module } from '@nestjs/common';
import { z } from 'zod';
import { INVITATION_MAILER, LoggingInvitationMailer } from './invitation-mailer';
import { LiveNotificationRepository } from './live-notification.repository';
import { LiveNotificationsService } from './live-notifications.service';
import { notificationsMigrations } from './migrations';
import { NotificationProducersConsumer } from './producers/notification-producers.consumer';

@RpcController()
export class NotificationsRpcController {
  constructor(private readonly live: LiveNotificationsService) {}

  @Handles(NotificationsSubjects.liveNotifications)
  liveNotifications(request: { userId: string; after: number }): Promise<LiveNotificationsReply> {
    return this.live.list(request.userId, request.after);
  }

  @Handles(NotificationsSubjects.liveNotificationCommand)
  async liveNotificationCommand(request: { userId: string; command: LiveNotificationCommand }): Promise<{ ok: true }> {
    await this.live.run(request.userId, request.command);
    return { ok: true };
  }
}

@Module({
  controllers: [NotificationsRpcController],
  providers: [
    LiveNotificationsService,
    LiveNotificationRepository,
    NotificationProducersConsumer,
    // No mail sender ships with the server: this one only logs. A real one replaces it here (see InvitationMailer).
    { provide: INVITATION_MAILER, useClass: LoggingInvitationMailer },
  ],
})
export class NotificationsModule {}

/** Live notifications per user (later: push and webhooks), fed by domain events. */
export const notificationsService = {
  name: 'notifications',
  defaultPort: 3005,
  env: z.object({}),
  database: { schema: 'notifications', migrations: notificationsMigrations },
  imports: () => [NotificationsModule],
} satisfies ServiceDefinition;
