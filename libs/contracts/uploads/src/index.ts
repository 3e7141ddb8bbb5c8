export * as UploadsSubjects from './subjects';
export { FILE_PATH_PREFIX, STREAMED_FILES_PREFIX, streamedFileFolder, streamedFileKey, UPLOAD_TIMEOUT_MS, type UploadLimit } from './upload-limit';
