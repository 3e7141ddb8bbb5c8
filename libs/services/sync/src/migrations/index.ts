import { CreateSyncSchema1732190000400 } from './1732190000400-create-sync-schema';
import { IndexCompletedItems1732190000900 } from './1732190000900-index-completed-items';
import { CreateItems1732190000500 } from './1732190000500-create-items';
import { CreateSections1732190000600 } from './1732190000600-create-sections';
import { CreateLabelsAndFilters1732190000700 } from './1732190000700-create-labels-and-filters';
import { CreateNotesAndReminders1732190000800 } from './1732190000800-create-notes-and-reminders';
import { UserSettings1732190001000 } from './1732190001000-user-settings';
import { CommandLogRetention1732190001100 } from './1732190001100-command-log-retention';
import { ViewOptions1732190001200 } from './1732190001200-view-options';
import { Locations1732190001300 } from './1732190001300-locations';
import { Collaboration1732190001400 } from './1732190001400-collaboration';
import { Karma1732190001500 } from './1732190001500-karma';
import { NotificationMark1732190001600 } from './1732190001600-notification-mark';
import { PlanLimits1732190001700 } from './1732190001700-plan-limits';
import { Workspaces1732190001800 } from './1732190001800-workspaces';
import { ActivityLog1732190002000 } from './1732190002000-activity-log';
import { Backups1732190002300 } from './1732190002300-backups';

export const syncMigrations = [CreateSyncSchema1732190000400, CreateItems1732190000500, CreateSections1732190000600, CreateLabelsAndFilters1732190000700, CreateNotesAndReminders1732190000800, IndexCompletedItems1732190000900, UserSettings1732190001000, CommandLogRetention1732190001100, ViewOptions1732190001200, Locations1732190001300, Collaboration1732190001400, Karma1732190001500, NotificationMark1732190001600, PlanLimits1732190001700, Workspaces1732190001800, ActivityLog1732190002000, Backups1732190002300];
