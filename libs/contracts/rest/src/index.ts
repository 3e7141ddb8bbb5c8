export * as RestSubjects from './subjects';
export * from './endpoints';
export * from './openapi/rest-operations.schema';
export { openApiDocument, type OpenApiOptions } from './openapi/openapi-document';
export { restV2Due } from './rest-v2/rest-v2-due';
export { restTaskUrl, restV2Task, restV2TaskWriter } from './rest-v2/rest-v2-task';
export { page as apiV1Page, taskApiV1 } from './openapi/api-v1-objects.schema';
export { TASK_CREATE_INPUTS, TASK_UPDATE_INPUTS, taskBodyInputs } from './openapi/rest-inputs.schema';
export { type RestTaskInput, restTaskInputs, restTaskShape } from './openapi/rest-task-inputs';
