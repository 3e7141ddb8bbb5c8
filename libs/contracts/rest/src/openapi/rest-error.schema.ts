import { z } from 'zod';

/** Every 4xx/5xx body of the REST surfaces (the Todoist error body: libs/shared/errors todoistErrorBody). */
export const restError = z
  .strictObject({
    error: z.string(),
    error_code: z.int(),
    error_extra: z.record(z.string(), z.unknown()),
    error_tag: z.string(),
    http_code: z.int(),
  })
  .meta({ id: 'Error' });
