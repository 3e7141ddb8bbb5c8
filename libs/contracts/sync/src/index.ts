export * as SyncSubjects from './subjects';
export * from './objects';
export * from './api-objects';
export * from './colors';
export * from './first-generation';
