import { type LiveNotificationCommandRequest, NotificationsSubjects, type LiveNotificationsReply } from '@doable/contracts-notifications';
import { env } from '@doable/shared-config';
import { COMMAND_LOG_RETENTION_DAYS, COMMAND_LOG_TABLE, CommandLogRetention, RpcController, SERVICE_CONFIG, type ServiceConfig, type ServiceDefinition } from '@doable/shared-runtime';
import { Handles } from '@doable/shared-transport';
import { Module } from '@nestjs/common';
import { z } from 'zod';
import { CommandLogRepository } from './command-log.repository';
import { CollaborationMailer } from './mail/collaboration-mailer';
import { DailyDigestMailer } from './mail/daily-digest-mailer';
import { INVITATION_MAILER, QueueingInvitationMailer } from './mail/invitation-mailer';
import { MailConsumers } from './mail/mail.consumers';
import { MailOutbox } from './mail/mail-outbox';
import { MAIL_SETTINGS, mailEnv, mailSettingsOf } from './mail/mail-settings';
import { MailWorker } from './mail/mail-worker';
import { MailPreferencesRepository } from './mail/mail-preferences.repository';
import { MailQueueRepository } from './mail/mail-queue.repository';
import { LiveNotificationRepository } from './store/live-notification.repository';
import { LiveNotificationsService } from './live-notifications.service';
import { notificationsMigrations } from './migrations';
import { NotificationProducersConsumer } from './producers/notification-producers.consumer';

const notificationsEnv = z.object({
  /** How long a live-notification command's uuid is remembered (sync's variable: the two logs are kept alike). */
  COMMAND_LOG_RETENTION_DAYS: env.positiveInt(30),
}).extend(mailEnv.shape);

@RpcController()
export class NotificationsRpcController {
  constructor(private readonly live: LiveNotificationsService) {}

  @Handles(NotificationsSubjects.liveNotifications)
  liveNotifications(request: { userId: string; after: number }): Promise<LiveNotificationsReply> {
    return this.live.list(request.userId, request.after);
  }

  @Handles(NotificationsSubjects.liveNotificationCommand)
  async liveNotificationCommand(request: LiveNotificationCommandRequest): Promise<{ ok: true }> {
    await this.live.run(request.userId, request.command, request.uuid);
    return { ok: true };
  }
}

@Module({
  controllers: [NotificationsRpcController],
  providers: [
    LiveNotificationsService,
    LiveNotificationRepository,
    CommandLogRepository,
    CommandLogRetention,
    // Read from the service's config here rather than handed in by imports(config): a definition
    // whose imports take its own env is no longer a plain ServiceDefinition (see ALL_SERVICES).
    { provide: COMMAND_LOG_RETENTION_DAYS, useFactory: (config: ServiceConfig<typeof notificationsEnv>) => config.COMMAND_LOG_RETENTION_DAYS, inject: [SERVICE_CONFIG] },
    { provide: COMMAND_LOG_TABLE, useValue: 'notifications.command_log' },
    NotificationProducersConsumer,
    { provide: MAIL_SETTINGS, useFactory: (config: ServiceConfig<typeof notificationsEnv>) => mailSettingsOf(config), inject: [SERVICE_CONFIG] },
    MailQueueRepository,
    MailPreferencesRepository,
    MailWorker,
    MailOutbox,
    MailConsumers,
    { provide: INVITATION_MAILER, useClass: QueueingInvitationMailer },
    CollaborationMailer,
    DailyDigestMailer,
  ],
})
export class NotificationsModule {}

/** Live notifications per user and mail (the mail queue), fed by domain events. */
export const notificationsService = {
  name: 'notifications',
  defaultPort: 3005,
  env: notificationsEnv,
  database: { schema: 'notifications', migrations: notificationsMigrations },
  imports: () => [NotificationsModule],
} satisfies ServiceDefinition<typeof notificationsEnv>;
