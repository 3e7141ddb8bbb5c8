export * from './storable-text';
export * from './object-id';
export * from './stored-integer';
export * from './calendar-range';
export * from './command-args';
