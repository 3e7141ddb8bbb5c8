export * from './test-database';
export * from './test-nats';
export * from './private-nats';
export * from './wait-for';
export * from './http-client';
export * from './free-port';
export * from './openapi-validator';
export * from './source-graph';
