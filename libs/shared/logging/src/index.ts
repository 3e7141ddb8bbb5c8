export * from './correlation';
export * from './logger';
export * from './product-version';
export * from './ready-line';
export * from './spans';
