export * as SyncSubjects from './subjects';
