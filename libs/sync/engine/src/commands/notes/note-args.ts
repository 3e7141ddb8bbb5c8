import { DomainError } from '@doable/shared-errors';
import { z } from 'zod';
import type { FileAttachment } from '@doable/sync-domain';
import { idArg } from '../../command-args';

const webUrl = z
  .string()
  .trim()
  .max(2_048)
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value), 'must be an http(s) URL');
const thumbnail = z.tuple([webUrl, z.number().int().nonnegative(), z.number().int().nonnegative()]);
const size = z.number().int().nonnegative();

/**
 * A comment's attachment: a file (uploaded or elsewhere, `file_url`) or a link (`url`). Unknown
 * keys are dropped; `resource_type`, which the SDKs require on the way back, defaults to "file".
 */
export const fileAttachmentArg = z
  .object({
    resource_type: z.string().trim().min(1).max(32).optional(),
    file_name: z.string().max(512).nullish(),
    file_size: size.nullish(),
    file_type: z.string().max(255).nullish(),
    file_url: webUrl.nullish(),
    file_duration: size.nullish(),
    upload_state: z.enum(['pending', 'completed']).nullish(),
    image: webUrl.nullish(),
    image_width: size.nullish(),
    image_height: size.nullish(),
    url: webUrl.nullish(),
    title: z.string().max(2_048).nullish(),
    tn_l: thumbnail.optional(),
    tn_m: thumbnail.optional(),
    tn_s: thumbnail.optional(),
  })
  .refine((attachment) => Boolean(attachment.file_url ?? attachment.url), 'needs file_url (or url for a link)')
  .transform((attachment): FileAttachment => {
    const stored = Object.fromEntries(Object.entries(attachment).filter(([, value]) => value !== undefined));
    return { ...stored, resource_type: attachment.resource_type ?? 'file' };
  });

export const noteContentArg = z.string().max(15_000);
export const uidsArg = z.array(idArg).max(100);
export const reactionArg = z.string().trim().min(1).max(32);

/** Ids as the database stores them (bigint): a non-numeric user id is refused, not silently cast. */
export function userIds(values: ReadonlyArray<string | number>, argument: string): string[] {
  return values.map((value) => {
    const id = String(value);
    if (!/^\d{1,18}$/.test(id)) throw new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: ${argument}`, { argument });
    return id;
  });
}

/** A comment needs words or an attachment. */
export function checkNoteContent(content: string, attachment: FileAttachment | null): string {
  if (!content.trim() && !attachment) throw new DomainError('INVALID_ARGUMENT_VALUE', 'A comment needs content or a file attachment', { argument: 'content' });
  return content;
}
