import { apiV1Page, taskApiV1 } from '@doable/contracts-rest';
import { z } from 'zod';

/**
 * What the api/v1 endpoints sync answers itself (not REST operations, so not in the REST
 * contracts) reply, built from the contract's api/v1 schemas where one describes the objects:
 * DomainCalls.edge parses each reply with its schema.
 */

/** `tasks/completed/by_*`: `{items, next_cursor}`, tasks as api/v1 writes them (api/v1 REST's task). */
export const completedTasksReply = z.strictObject({ items: z.array(taskApiV1), next_cursor: z.string().nullable() });

/** `activities`: a page of events, which the tools pass on as they are (no contract schema describes an event). */
export const activitiesReply = apiV1Page(z.looseObject({ id: z.union([z.string(), z.number()]) }));

/** `templates/file`: the template's CSV text. */
export const templateFileReply = z.string();

/** `templates/import_into_project_from_file`: what the import added (the tools count it). */
export const templateImportReply = z.looseObject({ tasks: z.array(z.unknown()).optional(), sections: z.array(z.unknown()).optional() });
