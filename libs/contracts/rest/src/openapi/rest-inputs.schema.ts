import { z } from 'zod';
import { type FieldTable, TASK_FIELDS } from '@doable/contracts-sync';
import { booleanField, colorField, idField, intField, nullableIdField, queryIdList, queryInt, requiredText, stringList, text } from './rest-input.fields';
import { type RestTaskInput, restTaskInputs, restTaskShape } from './rest-task-inputs';

const keysOf = <S extends object>(shape: S) => Object.keys(shape) as Array<keyof S & string>;

/**
 * What REST v2 and api/v1 operations take: JSON bodies and query parameters. The rest service
 * validates every request with these before its handler runs (rest-input.ts there), and the
 * OpenAPI document is generated from them: one description, no drift.
 * Objects are open (unknown keys are ignored, as clients send more than an endpoint reads).
 */

/** api/v1 paging: `limit` 1..200 (50 by default) and the opaque `cursor` of the previous page. */
export const pageQuery = z.object({
  cursor: text(512).optional(),
  limit: queryInt({ min: 1, max: 200 }).optional(),
});

const taskFields = {
  description: text().optional(),
  labels: stringList().optional().describe('Label names.'),
  priority: intField({ min: 1, max: 4 }).optional().describe('1 (normal) to 4 (urgent).'),
  due_string: text().nullable().optional().describe('Free-form date text; only one of due_string, due_date and due_datetime.'),
  due_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'YYYY-MM-DD' }).nullable().optional(),
  due_datetime: text().nullable().optional().describe('RFC 3339.'),
  due_lang: text(8).optional(),
  assignee_id: nullableIdField.optional(),
  duration: intField({ min: 1 }).nullable().optional().describe('Sent together with duration_unit.'),
  duration_unit: z.enum(['minute', 'day'], { error: 'minute or day' }).nullable().optional(),
  deadline_date: text().nullable().optional().describe('YYYY-MM-DD.'),
  deadline_lang: text(8).optional(),
};

const taskCreateFields = {
  content: requiredText(),
  project_id: idField.optional(),
  section_id: nullableIdField.optional(),
  parent_id: nullableIdField.optional(),
  order: intField({ min: 0 }).optional(),
  ...taskFields,
};
const taskUpdateFields = { content: text().optional(), ...taskFields };

/** The task fields a create and an update of a table take as they are (rest-task-inputs.ts), beside the keys REST spells itself. */
export function taskBodyInputs(table: FieldTable): { readonly create: RestTaskInput[]; readonly update: RestTaskInput[] } {
  return { create: restTaskInputs(table, 'add', keysOf(taskCreateFields)), update: restTaskInputs(table, 'update', keysOf(taskUpdateFields)) };
}

export const taskCreateBody = z.object({ ...taskCreateFields, ...restTaskShape(TASK_FIELDS, 'add', keysOf(taskCreateFields)) }).meta({ id: 'TaskCreate' });

export const taskUpdateBody = z.object({ ...taskUpdateFields, ...restTaskShape(TASK_FIELDS, 'update', keysOf(taskUpdateFields)) }).meta({ id: 'TaskUpdate' });

/** What the rest service passes to item_add and item_update as it is. */
export const { create: TASK_CREATE_INPUTS, update: TASK_UPDATE_INPUTS } = taskBodyInputs(TASK_FIELDS);

export const taskMoveBody = z
  .object({ project_id: idField.optional(), section_id: idField.optional(), parent_id: idField.optional() })
  .describe('Exactly one destination.')
  .meta({ id: 'TaskMove' });

const taskListFilters = {
  ids: queryIdList.optional(),
  project_id: idField.optional(),
  section_id: idField.optional(),
  label: text(1024).optional().describe('A label name.'),
};

/** REST v2: `filter` wins over `ids`, and `ids` over the rest (public-api-facts §4.1). */
export const taskListQueryV2 = z.object({ filter: text(1024).optional(), lang: text(8).optional(), ...taskListFilters });
export const taskListQueryApiV1 = z.object({ ...taskListFilters, parent_id: idField.optional(), ...pageQuery.shape });
export const taskFilterQuery = z.object({ query: requiredText(1024), lang: text(8).optional(), ...pageQuery.shape });

const projectFields = {
  color: colorField.optional(),
  is_favorite: booleanField.optional(),
  view_style: text(16).optional().describe('list, board or calendar.'),
};

export const projectCreateBodyV2 = z.object({ name: requiredText(1024), parent_id: nullableIdField.optional(), ...projectFields }).meta({ id: 'ProjectCreateV2' });
export const projectUpdateBodyV2 = z.object({ name: text(1024).optional(), ...projectFields }).meta({ id: 'ProjectUpdateV2' });
export const projectCreateBodyApiV1 = projectCreateBodyV2.extend({ description: text().optional() }).meta({ id: 'ProjectCreateApiV1' });
export const projectUpdateBodyApiV1 = projectUpdateBodyV2.extend({ description: text().optional() }).meta({ id: 'ProjectUpdateApiV1' });
export const projectMoveToWorkspaceBody = z.object({ project_id: idField, workspace_id: idField, is_invite_only: booleanField.nullable().optional(), folder_id: nullableIdField.optional(), access: z.unknown().optional() });
export const projectMoveToPersonalBody = z.object({ project_id: idField });
export const searchQuery = z.object({ query: requiredText(1024), ...pageQuery.shape });
export const workspaceScopedQuery = z.object({ workspace_id: idField.optional(), ...pageQuery.shape });

export const sectionListQuery = z.object({ project_id: idField.optional() });
export const sectionSearchQuery = z.object({ query: requiredText(1024), project_id: idField.optional(), ...pageQuery.shape });
export const sectionCreateBody = z.object({ name: requiredText(2048), project_id: idField, order: intField({ min: 0 }).optional() }).meta({ id: 'SectionCreate' });
export const sectionUpdateBodyV2 = z.object({ name: requiredText(2048) }).meta({ id: 'SectionUpdateV2' });
export const sectionUpdateBodyApiV1 = z.object({ name: text(2048).optional() }).meta({ id: 'SectionUpdateApiV1' });

const labelFields = { color: colorField.optional(), order: intField().optional(), is_favorite: booleanField.optional() };
export const labelCreateBody = z.object({ name: requiredText(128), ...labelFields }).meta({ id: 'LabelCreate' });
export const labelUpdateBody = z.object({ name: text(128).optional(), ...labelFields }).meta({ id: 'LabelUpdate' });
export const sharedLabelsQuery = z.object({ omit_personal: booleanField.optional() });
export const sharedLabelRenameBody = z.object({ name: requiredText(128), new_name: requiredText(128) });
export const sharedLabelRemoveBody = z.object({ name: requiredText(128) });

/** Exactly one of task_id and project_id. */
const commentTarget = { task_id: idField.optional(), project_id: idField.optional() };
export const commentListQuery = z.object(commentTarget).describe('Send task_id or project_id.');
export const commentCreateBody = z
  .object({
    ...commentTarget,
    content: requiredText(),
    attachment: z.looseObject({ file_url: z.string().optional(), file_name: z.string().optional(), file_type: z.string().optional(), resource_type: z.string().optional() }).nullable().optional(),
  })
  .meta({ id: 'CommentCreate' });
export const commentUpdateBody = z.object({ content: requiredText() }).meta({ id: 'CommentUpdate' });
