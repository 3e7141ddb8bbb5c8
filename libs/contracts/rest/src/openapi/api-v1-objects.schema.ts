import { COLLABORATOR_ROLES, COMMENT_FIELDS, LABEL_FIELDS, openApiShape, PROJECT_FIELDS, restApiV1Lines, SECTION_FIELDS, TASK_FIELDS } from '@doable/contracts-sync';
import { z } from 'zod';

/**
 * api/v1 REST response objects: the sync service's api/v1 objects as the rest-api-v1 dialect
 * passes them on (client-constraints §2.1-2.6; sdk 17's schemas in client-schemas.md).
 */

const id = z.string();

/** The api/v1 task, key by key from the task field table. */
export const taskApiV1 = z.strictObject(openApiShape(TASK_FIELDS, 'apiV1')).meta({ id: 'TaskApiV1' });

/** The api/v1 project, key by key from the project field table (a workspace project's keys optional). */
export const projectApiV1 = z.strictObject(openApiShape(PROJECT_FIELDS, 'apiV1')).meta({ id: 'ProjectApiV1' });

/** The api/v1 section, key by key from the section field table. */
export const sectionApiV1 = z.strictObject(openApiShape(SECTION_FIELDS, 'apiV1')).meta({ id: 'SectionApiV1' });

/** The api/v1 REST label, key by key from the label field table (the keys api/v1 writes in sync only left out). */
export const labelApiV1 = z.strictObject(openApiShape(restApiV1Lines(LABEL_FIELDS), 'apiV1')).meta({ id: 'LabelApiV1' });

/** The api/v1 comment, key by key from the comment field table. */
export const commentApiV1 = z.strictObject(openApiShape(COMMENT_FIELDS, 'apiV1')).meta({ id: 'CommentApiV1' });

/** A project's person as `projects/{id}/full` and `/join` list them (the sync collaborators shape). */
export const projectPersonApiV1 = z
  .strictObject({ id, email: z.string(), full_name: z.string(), timezone: z.string(), image_id: z.string().nullable() })
  .meta({ id: 'ProjectPersonApiV1' });

/** A person's membership of a project (the sync collaborator_states shape); `workspace_role` only in a workspace project. */
export const collaboratorStateApiV1 = z
  .strictObject({ project_id: id, user_id: id, state: z.string(), is_deleted: z.boolean(), role: z.string().nullable(), workspace_role: z.string().optional() })
  .meta({ id: 'CollaboratorStateApiV1' });

/** Doable's own `projects/{id}/invitations`: an open invitation (sync's ApiProjectInvitation), never its secret. */
export const projectInvitationApiV1 = z
  .strictObject({
    id,
    project_id: id,
    inviter_id: id,
    user_email: z.string(),
    role: z.enum(COLLABORATOR_ROLES),
    created_at: z.string().describe('When it was sent (or last sent again): RFC 3339 in UTC, YYYY-MM-DDTHH:MM:SS.ffffffZ.'),
  })
  .meta({ id: 'ProjectInvitationApiV1' });

/** `projects/permissions`: each role and the actions it may take, for project and for workspace roles. */
const roleActions = z.array(z.strictObject({ name: z.string(), actions: z.array(z.strictObject({ name: z.string() })) }));
export const rolePermissionsApiV1 = z
  .strictObject({ project_collaborator_actions: roleActions, workspace_collaborator_actions: roleActions })
  .meta({ id: 'RolePermissionsApiV1' });

/** api/v1 lists are pages: `next_cursor` is null on the last one. */
export function page<T extends z.ZodType>(item: T) {
  return z.strictObject({ results: z.array(item), next_cursor: z.string().nullable() });
}
