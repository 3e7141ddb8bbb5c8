export { syncService } from './sync.service-definition';
export { seedLargeAccount, ISSUE_SIZE, type LargeAccountSize } from './testing/large-account';
