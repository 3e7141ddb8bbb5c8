export * as apiObjectSamples from './api-object-samples';
