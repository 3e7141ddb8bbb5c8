export * as RestSubjects from './subjects';
export * from './endpoints';
export * from './openapi/rest-operations.schema';
export { openApiDocument, type OpenApiOptions } from './openapi/openapi-document';
