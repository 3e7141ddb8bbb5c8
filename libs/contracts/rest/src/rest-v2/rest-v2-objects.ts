import type { z } from 'zod';
import type { WireSchemas } from '@doable/contracts-sync';
import type { collaborator, commentV2, labelV2, projectV2, sectionV2, taskV2 } from '../openapi/rest-v2-objects.schema';

/**
 * The REST v2 objects as types, inferred from the response schemas the OpenAPI document is made
 * of. Types only: the REST v2 dialect that writes them is the sync service's
 * (libs/sync/dialects/src/rest-v2), which answers them as JSON text the rest service passes on.
 */
export type RestV2Task = z.infer<typeof taskV2>;
export type RestV2Due = NonNullable<RestV2Task['due']>;
export type RestV2Project = z.infer<typeof projectV2>;
export type RestV2Section = z.infer<typeof sectionV2>;
export type RestV2Label = z.infer<typeof labelV2>;
export type RestV2Comment = z.infer<typeof commentV2>;
export type RestV2Attachment = z.infer<typeof WireSchemas.attachment>;
export type RestV2Collaborator = z.infer<typeof collaborator>;
