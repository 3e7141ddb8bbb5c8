export * as RestSubjects from './subjects';
export * from './endpoints';
