// Test support over the sync schema (plans given to test users, a large account's seed, a
// commit that fails once): for specs and the bench, never for the service's own code.
export * from './fail-first-commit';
export * from './large-account';
export * from './plans';
