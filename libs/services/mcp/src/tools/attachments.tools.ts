import type { ApiAttachment } from '@doable/contracts-sync';
import { FILE_PATH_PREFIX } from '@doable/contracts-uploads';
import { z } from 'zod';
import type { DomainCalls } from '../calls/domain-calls';
import { ToolFailure } from '../calls/tool-failure';
import { id } from './shapes';
import { defineTool, WithContent } from './tool-definition';

/** Text shown whole up to 1 MiB (a quarter of a million tokens is already more than an assistant reads). */
export const MAX_TEXT_BYTES = 1024 * 1024;
/** Images sent up to 5 MiB (what assistants' vision inputs take); a larger one is shown as its 528 px thumbnail. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const TEXT_TYPES = new Set(['application/json', 'application/xml']);

type Kind = 'image' | 'text' | 'none';

export function kindOf(fileType: string): Kind {
  if (IMAGE_TYPES.has(fileType)) return 'image';
  return fileType.startsWith('text/') || TEXT_TYPES.has(fileType) ? 'text' : 'none';
}

/** The path of a URL naming one of our stored files (any origin: a comment keeps the URL as written); null otherwise. */
export function storedPath(fileUrl: string): string | null {
  try {
    const path = new URL(fileUrl).pathname;
    return path.startsWith(FILE_PATH_PREFIX) ? path : null;
  } catch {
    return null;
  }
}

/** The large thumbnail's path beside an original's (`<id>/<signature>/tn_l/<name>`). */
export function thumbnailPath(path: string): string {
  const parts = path.slice(FILE_PATH_PREFIX.length).split('/');
  return `${FILE_PATH_PREFIX}${parts[0]}/${parts[1]}/tn_l/${parts.slice(2).join('/')}`;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export const viewAttachment = defineTool({
  name: 'view-attachment',
  title: 'View an attachment',
  description:
    "A comment's file attachment (give commentId, or the fileUrl of a comment's file_attachment): its name, type and size, and its content when this server stores it: " +
    'text files (text/*, JSON, XML) up to 1 MiB as `text`, images (PNG, JPEG, GIF, WebP) up to 5 MiB as an image block (a larger one as its 528 px thumbnail). ' +
    'Other files, larger ones and links to elsewhere answer the metadata only, with `omitted` saying why.',
  readOnly: true,
  input: {
    commentId: id.optional(),
    fileUrl: z.string().url().max(2048).optional().describe("The file_url of a comment's file_attachment"),
  },
  output: {
    attachment: z.object({
      fileName: z.string().nullable(),
      fileType: z.string().nullable().describe('As the server detected it from the bytes, when it stores the file'),
      fileSize: z.number().nullable().describe('Bytes'),
      fileUrl: z.string(),
      commentId: z.string().nullable(),
    }),
    content: z.enum(['text', 'image', 'none']).describe('What the answer carries: the text, an image block after this JSON, or nothing'),
    text: z.string().nullable(),
    thumbnail: z.boolean().describe('The image shown is the 528 px thumbnail, the original being too large'),
    omitted: z.enum(['too_large', 'not_text_or_image', 'not_stored_here']).nullable(),
  },
  async run(calls, args) {
    if ((args.commentId === undefined) === (args.fileUrl === undefined)) throw new ToolFailure('INVALID_ARGUMENT_VALUE', 'Give exactly one of commentId and fileUrl');
    const given = args.commentId === undefined ? null : await attachmentOfComment(calls, args.commentId);
    const fileUrl = given ? given.file_url : args.fileUrl!;
    const path = storedPath(fileUrl);
    const attachment = { fileName: text(given?.file_name), fileType: text(given?.file_type), fileSize: given?.file_size ?? null, fileUrl, commentId: args.commentId ?? null };
    const none = (omitted: 'too_large' | 'not_text_or_image' | 'not_stored_here') => ({ attachment, content: 'none' as const, text: null, thumbnail: false, omitted });
    // Only our own files are read: a link to elsewhere is never fetched (no request to an address a comment names).
    if (!path) {
      if (!given) throw new ToolFailure('NOT_FOUND', 'Only files stored by this server can be viewed');
      return none('not_stored_here');
    }
    const blob = await calls.storedFile(path);
    Object.assign(attachment, { fileName: attachment.fileName ?? blob.fileName, fileType: blob.contentType, fileSize: blob.size });
    const kind = kindOf(blob.contentType);
    if (kind === 'none') return none('not_text_or_image');
    if (kind === 'text') {
      if (blob.size > MAX_TEXT_BYTES) return none('too_large');
      return { attachment, content: 'text' as const, text: (await calls.fileBytes(blob, MAX_TEXT_BYTES)).toString('utf8'), thumbnail: false, omitted: null };
    }
    let shown = blob;
    if (blob.size > MAX_IMAGE_BYTES) {
      const thumbnail = await calls.storedFile(thumbnailPath(path)).catch((err: unknown) => {
        if (err instanceof ToolFailure) return null;
        throw err;
      });
      if (!thumbnail) return none('too_large');
      shown = thumbnail;
    }
    const bytes = await calls.fileBytes(shown, MAX_IMAGE_BYTES);
    return new WithContent({ attachment, content: 'image' as const, text: null, thumbnail: shown !== blob, omitted: null }, [{ type: 'image', data: bytes.toString('base64'), mimeType: shown.contentType }]);
  },
});

/** The comment's `file_attachment`, read as REST answers it (so the caller must see the comment). */
async function attachmentOfComment(calls: DomainCalls, commentId: string): Promise<ApiAttachment & { readonly file_url: string }> {
  const comment = await calls.rest('comments.get', { params: { id: commentId } });
  const attachment = comment.file_attachment;
  const fileUrl = attachment?.file_url;
  if (!attachment || typeof fileUrl !== 'string') throw new ToolFailure('INVALID_ARGUMENT_VALUE', `Comment ${commentId} has no file attachment`, { argument: 'commentId' });
  return { ...attachment, file_url: fileUrl };
}

export const ATTACHMENT_TOOLS = [viewAttachment];
