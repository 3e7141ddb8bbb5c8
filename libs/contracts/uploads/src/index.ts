export * as UploadsSubjects from './subjects';
export { AVATAR_MAX_BYTES, FILE_PATH_PREFIX, STREAMED_FILES_PREFIX, streamedFileFolder, streamedFileKey, UPLOAD_TIMEOUT_MS, type UploadLimit } from './upload-limit';
