// The API versions of sync: one folder per version, each parsing its requests into the engine's
// canonical request and rendering canonical results in its shape; none imports another (tag sync:dialects).
export * from './first-generation/first-generation-reads.repository';
export * from './first-generation/first-generation.service';
export * from './legacy';
export * from './legacy/legacy-timestamps';
export * from './legacy/legacy-values';
export * from './shared/completed-info.writer';
export { answerBody, answerBytes, answerText, RawJson } from './shared/raw-json';
export { API_V1_JSON, V9_JSON } from './shared/sync-json';
// The columns where PostgreSQL keeps tasks' and comments' texts (for the bench's baseline, which leaves them out).
export { STORED_NOTE_JSON, STORED_TASK_JSON } from './shared/stored-object-json';
export { objectJsonSql, type RowWriterKind } from './shared/field-json.sql';
export * from './shared/reminder.writer';
export * from './shared/wire-format';
export * from './shared/workspace.writers';
export * from './sync-api-v1/sync-api-v1.writers';
export * from './sync-dialects';
export * from './rendering-dialects';
// REST v2's writers, for the specs that hold its JavaScript and its SQL to one table (the answers go through renderingOf).
export { restV2Task, restV2TaskWriter } from './rest-v2/rest-v2-task.writer';
export { restV2TaskJsonSql, restV2TaskListSql, taskListBody } from './rest-v2/rest-v2-task-list.sql';
export type { ObjectRenderer, RenderedAnswer, RenderSource, TaskListQuery, TaskSelection } from './shared/object-renderer';
export * from './sync-v8/sync-v8.writers';
export * from './sync-v9/sync-v9.writers';
export { taskRowWriter } from './shared/item-fields';
export { fieldRowWriter } from './shared/field-writer';
