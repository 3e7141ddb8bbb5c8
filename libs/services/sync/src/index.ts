export { syncService } from './sync.service-definition';
export { seedLargeAccount, ISSUE_SIZE, type LargeAccountSize } from '@doable/sync-domain/testing';
export { TaskFilterService, type TaskFilterOptions } from '@doable/sync-read';
export { COMMAND_HANDLERS, type CommandHandler } from '@doable/sync-engine';
