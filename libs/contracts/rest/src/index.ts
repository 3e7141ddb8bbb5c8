export * as RestSubjects from './subjects';
