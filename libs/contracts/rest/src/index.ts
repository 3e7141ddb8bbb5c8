export * as RestSubjects from './subjects';
export * from './endpoints';
export * from './openapi/rest-operations.schema';
export { openApiDocument, type OpenApiOptions } from './openapi/openapi-document';
export * from './app-links';
export type * from './rest-v2/rest-v2-objects';
export { page as apiV1Page, projectApiV1, sectionApiV1, taskApiV1 } from './openapi/api-v1-objects.schema';
export { userApiV1 } from './openapi/api-v1-account-objects.schema';
