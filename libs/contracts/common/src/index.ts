export * from './subject';
export * from './principal';
export * from './edge';
export * from './input';
export * from './gateway-registry';
export * from './homes';
export * from './envelope-text';
