/**
 * The shapes Sync v8, v7, v6 and the first generation share, as pure functions: each dialect
 * module parses its requests and renders its answers with these, over the one domain.
 */
export * from './task-tree-order';
export * from './legacy-due';
export * from './legacy-colors';
export * from './legacy-timestamps';
export * from './legacy-values';
