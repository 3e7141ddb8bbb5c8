export * from './subject';
export * from './wire-error';
export * from './principal';
export * from './edge';
