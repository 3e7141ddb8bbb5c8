export * from './all-services';
export * from './embedded-system';
export * from './cluster-system';
export * from './first-account';
export * from './cluster-processes';
export * from './cluster-launcher';
export * from './migrated-schemas';
export * from './release-migrations';
