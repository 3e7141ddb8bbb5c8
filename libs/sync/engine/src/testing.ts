// Test beds of real command executors over fresh databases, for specs of the commands and the policy.
export * from './commands/plan-limits.harness';
export * from './commands/workspaces/workspace.harness';
export * from './commands/command-handlers.harness';
