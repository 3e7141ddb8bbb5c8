export { syncService } from './sync.service-definition';
export { seedLargeAccount, ISSUE_SIZE, type LargeAccountSize } from './testing/large-account';
export { TaskFilterService, type TaskFilterOptions } from './read/task-filter.service';
export { COMMAND_HANDLERS, type CommandHandler } from './engine/command-handler';
