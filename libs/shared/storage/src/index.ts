export * from './blob-store';
export * from './local-blob-store';
export * from './object-store-blob-store';
export * from './s3-blob-store';
export * from './storage-config';
export * from './blob-store-from-config';
export * from './orphan-collector';
