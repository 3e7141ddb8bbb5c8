export * from './error-catalog';
export * from './domain-error';
export * from './todoist-error-body';
export * from './wire-error';
