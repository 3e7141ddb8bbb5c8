import { GATEWAY_LEASE_MS } from '@doable/contracts-common';
import { AvatarRpcController } from './avatars/avatar.rpc-controller';
import { env } from '@doable/shared-config';
import { COMMAND_LOG_RETENTION_DAYS, COMMAND_LOG_TABLE, CommandLogRetention, type ServiceDefinition } from '@doable/shared-runtime';
import { Module } from '@nestjs/common';
import { z } from 'zod';
import { COMMAND_HANDLERS, COMMAND_PROVIDERS, CommandExecutor, type CommandHandler, EVENT_OBJECT_WRITER, INTERNAL_COMMAND_HANDLERS, INVITATION_BUDGET, type InvitationBudget, ItemQuickAddCommand, SyncEngine, UpdateNotificationSettingCommand } from '@doable/sync-engine';
import { writeEventObject } from './event-object-writer';
import { ArchivedItemsRepository, CompletedInfoRepository, CompletedRepository, CompletionStatsRepository, FilterRepository, FolderRepository, ItemDates, ItemRepository, KarmaRepository, LabelRepository, LocationRepository, NewAccounts, NoteRepository, PlanLimitsRepository, ProductivityStatsService, ProjectInvitationsRepository, ProjectMembersRepository, ProjectRepository, ReminderRepository, SectionRepository, syncMigrations, UserProfileRepository, ViewOptionsRepository, WorkspaceFilterRepository, WorkspaceInvitationsRepository, WorkspaceMembersRepository, WorkspaceRepository } from '@doable/sync-domain';
import { resourceProviders, SyncReader, TaskFilterService } from '@doable/sync-read';
import { SyncRpcController } from './rpc/sync.rpc-controller';
import { CompletedRpcController } from './rpc/completed.rpc-controller';
import { ActivityRpcController } from './rpc/activity.rpc-controller';
import { NotificationSettingsRpcController } from './rpc/notification-settings.rpc-controller';
import { ActivityLogService } from './activity/activity-log.service';
import { ActivityLogRepository } from './activity/activity-log.repository';
import { ActivityLogConsumer } from './activity/activity-log.consumer';
import { QuickAddRpcController } from './rpc/quick-add.rpc-controller';
import { ObjectsRpcController } from './rpc/objects.rpc-controller';
import { ArchivedRpcController } from './rpc/archived.rpc-controller';
import { TemplatesRpcController } from './rpc/templates.rpc-controller';
import { TemplateImportCommand } from './templates/template-import.command';
import { TemplateReadsRepository } from './templates/template-reads.repository';
import { TEMPLATES_PUBLIC_URL, TemplatesService } from './templates/templates.service';
import { FirstGenerationRpcController } from './rpc/first-generation.rpc-controller';
import { FirstGenerationReadsRepository, FirstGenerationService } from '@doable/sync-dialects';
import { ArchivedListings } from './objects/archived-listings';
import { ArchivedItems } from './objects/archived-items';
import { ObjectQueryService } from './objects/object-query.service';
import { ObjectReadsRepository } from './objects/object-reads.repository';
import { WorkspaceObjectQueries } from './objects/workspace-object-queries';
import { WorkspaceReadsRepository } from './objects/workspace-reads.repository';
import { ObjectsService } from './objects/objects.service';
import { TaskFilterQuery } from './objects/task-filter.query';
import { DialectReads } from './objects/dialect-reads';
import { QuickAddService } from './quick-add/quick-add.service';
import { CompletedService } from './completed-history/completed.service';
import { UserCreatedConsumer } from './consumers/user-created.consumer';
import { EmailChangedConsumer } from './consumers/email-changed.consumer';
import { EmailVerifiedConsumer } from './consumers/email-verified.consumer';
import { NotificationsDeliveredConsumer } from './consumers/notifications-delivered.consumer';
import { UserPlanChangedConsumer } from './consumers/user-plan-changed.consumer';
import { WorkspacePlanChangedConsumer } from './consumers/workspace-plan-changed.consumer';
import { BackupMaker } from './backups/backup-maker';
import { BACKUP_SETTINGS, BackupScheduler } from './backups/backup-scheduler';
import { BackupRepository } from './backups/backup.repository';
import { ReminderFiringRepository } from './reminder-firing/reminder-firing.repository';
import { REMINDER_SETTINGS, ReminderScheduler } from './reminder-firing/reminder-scheduler';
import { DailyDigestScheduler, DIGEST_SETTINGS } from './daily-digest/daily-digest-scheduler';
import { DailyDigestRepository } from './daily-digest/daily-digest.repository';
import { BackupsRpcController } from './rpc/backups.rpc-controller';
import { AccountImportRpcController } from './rpc/account-import.rpc-controller';
import { AccountImporter } from './portability/account-importer';
import { PushKeyRepository } from './push/push-key.repository';
import { PUSH_PUBLIC_URL, PushTokens } from './push/push-tokens.service';
import { GATEWAY_LEASE, UsersMovedObserver } from './gateway-polls/users-moved-observer';
import { PushRpcController } from './push/push.rpc-controller';
import { MailedInvitations } from './mailed-invitations/mailed-invitations';
import { MailedWorkspaceInvitations } from './mailed-invitations/mailed-workspace-invitations';
import { MailedInvitationsRpcController } from './mailed-invitations/mailed-invitations.rpc-controller';

@Module({
  controllers: [SyncRpcController, CompletedRpcController, QuickAddRpcController, ObjectsRpcController, ArchivedRpcController, FirstGenerationRpcController, BackupsRpcController, TemplatesRpcController, AccountImportRpcController, ActivityRpcController, PushRpcController, AvatarRpcController, NotificationSettingsRpcController, MailedInvitationsRpcController],
  providers: [
    CompletedRepository,
    CompletedInfoRepository,
    CompletedService,
    ActivityLogService,
    ActivityLogRepository,
    QuickAddService,
    TemplatesService,
    TemplateReadsRepository,
    TaskFilterService,
    UserProfileRepository,
    ProjectRepository,
    ProjectMembersRepository,
    ProjectInvitationsRepository,
    WorkspaceRepository,
    WorkspaceMembersRepository,
    WorkspaceInvitationsRepository,
    FolderRepository,
    WorkspaceFilterRepository,
    ItemRepository,
    SectionRepository,
    LabelRepository,
    FilterRepository,
    NoteRepository,
    ReminderRepository,
    ViewOptionsRepository,
    LocationRepository,
    ItemDates,
    KarmaRepository,
    // Every public command as a provider, and COMMAND_HANDLERS as their list (engine commands/index.ts).
    ...COMMAND_PROVIDERS,
    {
      // Not among COMMAND_HANDLERS: no client may send these (see CommandExecutor.runInternal).
      provide: INTERNAL_COMMAND_HANDLERS,
      useFactory: (handlers: CommandHandler[], projects: ProjectRepository, sections: SectionRepository, labels: LabelRepository, members: ProjectMembersRepository, profiles: UserProfileRepository) => [
        new ItemQuickAddCommand(handlers, projects, sections, labels),
        new TemplateImportCommand(handlers, labels, members),
        new UpdateNotificationSettingCommand(profiles),
      ],
      inject: [COMMAND_HANDLERS, ProjectRepository, SectionRepository, LabelRepository, ProjectMembersRepository, UserProfileRepository],
    },
    { provide: EVENT_OBJECT_WRITER, useValue: writeEventObject },
    CommandExecutor,
    ...resourceProviders,
    SyncReader,
    SyncEngine,
    NewAccounts,
    UserCreatedConsumer,
    EmailChangedConsumer,
    EmailVerifiedConsumer,
    NotificationsDeliveredConsumer,
    UserPlanChangedConsumer,
    WorkspacePlanChangedConsumer,
    ActivityLogConsumer,
    PlanLimitsRepository,
    ObjectReadsRepository,
    ObjectQueryService,
    WorkspaceReadsRepository,
    WorkspaceObjectQueries,
    TaskFilterQuery,
    DialectReads,
    ObjectsService,
    ArchivedListings,
    ArchivedItems,
    ArchivedItemsRepository,
    CommandLogRetention,
    CompletionStatsRepository,
    ProductivityStatsService,
    FirstGenerationReadsRepository,
    FirstGenerationService,
    BackupRepository,
    BackupMaker,
    AccountImporter,
    BackupScheduler,
    ReminderFiringRepository,
    ReminderScheduler,
    DailyDigestRepository,
    DailyDigestScheduler,
    PushKeyRepository,
    PushTokens,
    UsersMovedObserver,
    MailedInvitations,
    MailedWorkspaceInvitations,
  ],
})
export class SyncModule {}

const syncEnv = z.object({
  /** How long an executed command uuid is remembered (a retry within it is replayed, not re-run). */
  COMMAND_LOG_RETENTION_DAYS: env.positiveInt(30),
  /** How long an automatic backup is kept. */
  BACKUP_RETENTION_DAYS: env.positiveInt(7),
  /** How often sync looks for accounts due a backup (an operator's request waits at most this). */
  BACKUP_POLL_SECONDS: env.positiveInt(60),
  /** How often sync looks for reminders due (a reminder fires at most this late). */
  REMINDERS_POLL_SECONDS: env.positiveInt(30),
  /** How often sync looks for users due their daily digest (a digest comes at most this late). */
  DIGEST_POLL_SECONDS: env.positiveInt(300),
  /** The gateways' REVOCATION_LEASE_MS: telling gateways of moved users gives up on a silent live one after two of them. */
  REVOCATION_LEASE_MS: z.coerce.number().int().min(400).default(GATEWAY_LEASE_MS),
  /** Where users reach the product (as the rest service reads it): the base of templates/export_as_url's `file_url`. */
  PUBLIC_URL: env.publicUrl(),
  /**
   * Invitations (addresses shared with or invited, made or sent again) one user may send per
   * INVITATION_WINDOW_SECONDS; over it, the command is refused with RATE_LIMITED and retry_after.
   * Inviting an address whose invitation is open and was sent within the window sends nothing.
   */
  INVITATIONS_PER_SENDER: env.positiveInt(50),
  INVITATION_WINDOW_SECONDS: env.positiveInt(3600),
});

/** The task domain and the Sync API. */
export const syncService = {
  name: 'sync',
  defaultPort: 3001,
  env: syncEnv,
  // Full and incremental sync reads, REST lists and object queries may go to a streaming replica (docs/operations/postgres-replica.md).
  database: { schema: 'sync', migrations: syncMigrations, readReplica: true },
  imports: (config) => [
    {
      module: SyncModule,
      providers: [
        { provide: COMMAND_LOG_RETENTION_DAYS, useValue: config.COMMAND_LOG_RETENTION_DAYS },
        { provide: COMMAND_LOG_TABLE, useValue: 'sync.command_log' },
        { provide: BACKUP_SETTINGS, useValue: { retentionDays: config.BACKUP_RETENTION_DAYS, pollSeconds: config.BACKUP_POLL_SECONDS } },
        { provide: REMINDER_SETTINGS, useValue: { pollSeconds: config.REMINDERS_POLL_SECONDS } },
        { provide: DIGEST_SETTINGS, useValue: { pollSeconds: config.DIGEST_POLL_SECONDS } },
        { provide: TEMPLATES_PUBLIC_URL, useValue: config.PUBLIC_URL },
        { provide: PUSH_PUBLIC_URL, useValue: config.PUBLIC_URL },
        { provide: GATEWAY_LEASE, useValue: config.REVOCATION_LEASE_MS },
        { provide: INVITATION_BUDGET, useValue: { perSender: config.INVITATIONS_PER_SENDER, windowSeconds: config.INVITATION_WINDOW_SECONDS } satisfies InvitationBudget },
      ],
    },
  ],
} satisfies ServiceDefinition<typeof syncEnv>;
