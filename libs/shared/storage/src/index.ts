export * from './blob-store';
export * from './local-blob-store';
