import { COMMENT_FIELDS, LABEL_FIELDS, openApiShape, PROJECT_FIELDS, SECTION_FIELDS, TASK_FIELDS } from '@doable/contracts-sync';
import { z } from 'zod';

/**
 * REST v2 response objects as the rest-v2 dialect writes them (and the official SDKs of the v2
 * era require: client-schemas.md). Strict objects: a key the dialect starts writing without
 * being described here fails the e2e response check, so the document cannot fall behind.
 */

const id = z.string().describe('A string id.');

/** The REST v2 task, key by key from the task field table. */
export const taskV2 = z.strictObject(openApiShape(TASK_FIELDS, 'restV2')).meta({ id: 'TaskV2' });

/** The REST v2 project, key by key from the project field table. */
export const projectV2 = z.strictObject(openApiShape(PROJECT_FIELDS, 'restV2')).meta({ id: 'ProjectV2' });

/** The REST v2 section, key by key from the section field table. */
export const sectionV2 = z.strictObject(openApiShape(SECTION_FIELDS, 'restV2')).meta({ id: 'SectionV2' });

/** The REST v2 label, key by key from the label field table. */
export const labelV2 = z.strictObject(openApiShape(LABEL_FIELDS, 'restV2')).meta({ id: 'LabelV2' });

/** The REST v2 comment, key by key from the comment field table. */
export const commentV2 = z.strictObject(openApiShape(COMMENT_FIELDS, 'restV2')).meta({ id: 'CommentV2' });

export const collaborator = z.strictObject({ id, name: z.string(), email: z.string() }).meta({ id: 'Collaborator' });
