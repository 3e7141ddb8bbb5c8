export * from './data-source';
export * from './migrate';
export * from './embedded-postgres';
export * from './migrations/messaging-tables';
export * from './outbox/outbox-writer';
export * from './outbox/outbox-relay';
export * from './outbox/processed-events';
export * from './outbox/messaging-retention';
