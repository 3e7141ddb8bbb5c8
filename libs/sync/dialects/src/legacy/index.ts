/**
 * The shapes Sync v8, v7, v6 and the first generation share, as pure functions: each dialect
 * module parses its requests and renders its answers with these, over the one domain.
 */
// The tree <-> flat list translation lives with the tasks: the domain's flat-position commands place by it too.
export * from '@doable/sync-domain';
export * from './legacy-due';
export * from './legacy-colors';
export * from './legacy-timestamps';
export * from './legacy-values';
export * from './label-ids';
export * from './legacy-collaborators';
export * from './old-sync-commands';
export * from './old-sync-writers';
export * from './old-sync-envelope';
