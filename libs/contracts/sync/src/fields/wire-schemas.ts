import { z } from 'zod';

/**
 * The wire shapes the field tables give their fields (and the OpenAPI document describes). Here,
 * beside the tables, rather than in the REST contracts: a field's line names its shape, and the
 * REST OpenAPI objects are built from the lines.
 */

export const wireId = z.string().describe('A string id.');
export const wireNullableId = wireId.nullable();
export const wireTimestamp = z.string().describe('RFC 3339 in UTC, YYYY-MM-DDTHH:MM:SS.ffffffZ.');

export const dueApiV1 = z
  .strictObject({
    date: z.string().describe('YYYY-MM-DD, or a date-time (floating, or UTC with `Z` when `timezone` is set).'),
    string: z.string(),
    is_recurring: z.boolean(),
    timezone: z.string().nullable(),
    lang: z.string().nullable(),
    datetime: z.string().nullable().optional(),
  })
  .meta({ id: 'DueApiV1' });

export const dueV2 = z
  .strictObject({
    string: z.string(),
    is_recurring: z.boolean(),
    lang: z.string(),
    date: z.string().describe('The calendar day, YYYY-MM-DD (in the task’s zone when the time is fixed to one).'),
    datetime: z.string().nullable().describe('Set only when there is a time: an RFC 3339 UTC instant, or a floating wall-clock time.'),
    timezone: z.string().nullable(),
  })
  .meta({ id: 'DueV2' });

export const deadline = z.strictObject({ date: z.string(), lang: z.string().nullable() }).meta({ id: 'Deadline' });
export const duration = z.strictObject({ amount: z.int().min(1), unit: z.enum(['minute', 'day']) }).meta({ id: 'Duration' });

/** A comment's file: the sync attachment object, whose keys beyond these four vary by kind (image, audio, ...). */
export const attachment = z
  .looseObject({
    resource_type: z.string(),
    file_name: z.string().nullable().optional(),
    file_type: z.string().nullable().optional(),
    file_url: z.string().nullable().optional(),
  })
  .meta({ id: 'Attachment' });
