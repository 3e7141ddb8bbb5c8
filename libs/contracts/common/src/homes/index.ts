export * from './home-key';
export * from './home-ring';
export * from './nginx-ring';
export * from './envoy-ring';
export * from './xxhash64';
