// Test beds of real command executors over fresh databases, for specs of the commands and the policy.
export * from './plan-limits.harness';
export * from './workspace.harness';
export * from './command-handlers.harness';
