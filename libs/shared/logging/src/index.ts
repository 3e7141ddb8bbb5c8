export * from './correlation';
export * from './logger';
export * from './ready-line';
export * from './spans';
