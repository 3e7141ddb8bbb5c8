export { syncService } from './sync.service-definition';
export { TaskFilterService, type TaskFilterOptions } from '@doable/sync-read';
export { COMMAND_HANDLERS, type CommandHandler } from '@doable/sync-engine';
