export * as UploadsSubjects from './subjects';
