export * as UploadsSubjects from './subjects';
export { FILE_PATH_PREFIX, STAGING_PREFIX, UPLOAD_TIMEOUT_MS, type UploadLimit } from './upload-limit';
