import { type EdgeReply, type EdgeRequest, eventAsRead, jsonReply } from '@doable/contracts-common';
import { AVATAR_PATH_PREFIX, objectEventHeads, readObjectEvent, SyncEvents } from '@doable/contracts-sync';
import { FILE_PATH_PREFIX, type UploadLimit, UploadsSubjects } from '@doable/contracts-uploads';
import type { Principal } from '@doable/contracts-common';
import { DomainError } from '@doable/shared-errors';
import { EventConsumers, RpcController } from '@doable/shared-runtime';
import { Handles, type WithPrincipal } from '@doable/shared-transport';
import { attachmentOf, generationOf, listedUploadOf } from './upload-shapes';
import { AvatarsService } from './avatars/avatars.service';
import { mayLinkNote, UploadsService } from './uploads.service';

const DEFAULT_LIMIT = 30;
const MAX_LIMIT = 50;

type Operation = 'add' | 'get' | 'delete' | 'update_avatar';

/** v7-v9 name the operation in the path (`uploads/add`); api/v1 by the method on `/api/v1/uploads`; every generation's `update_avatar` by its name. */
function operationOf(request: EdgeRequest): Operation {
  const last = request.path.replace(/\/+$/, '').split('/').pop();
  if (last === 'add' || last === 'get' || last === 'delete' || last === 'update_avatar') return last;
  if (request.method === 'POST') return 'add';
  if (request.method === 'GET') return 'get';
  if (request.method === 'DELETE') return 'delete';
  throw new DomainError('ROUTE_NOT_FOUND', `No endpoint at ${request.path}`);
}

/** Query and form fields as one set of text parameters (a list or anything else is refused where it is read). */
function paramsOf(request: EdgeRequest): Record<string, unknown> {
  const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
  return { ...request.query, ...body };
}

function textParam(params: Record<string, unknown>, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw new DomainError('INVALID_ARGUMENT_VALUE', `${name} must be text`, { argument: name });
  return value;
}

function limitParam(params: Record<string, unknown>): number {
  const raw = textParam(params, 'limit');
  if (raw === undefined) return DEFAULT_LIMIT;
  const limit = /^[0-9]{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) throw new DomainError('INVALID_ARGUMENT_VALUE', `limit must be 1 to ${MAX_LIMIT}`, { argument: 'limit' });
  return limit;
}

function idParam(params: Record<string, unknown>, name: string): string | null {
  const raw = textParam(params, name);
  if (raw === undefined) return null;
  if (!/^[0-9]{1,18}$/.test(raw)) throw new DomainError('INVALID_ARGUMENT_VALUE', `${name} must be an upload id`, { argument: name });
  return raw;
}

/** The upload endpoints of every generation, the file route, the gateway's limit question, and the comment links. */
@RpcController()
export class UploadsRpcController {
  constructor(
    private readonly uploads: UploadsService,
    private readonly avatars: AvatarsService,
    consumers: EventConsumers,
  ) {
    consumers.on('uploads.link-notes', SyncEvents.objectEvent, (event, tx) => this.uploads.linkNote(event, tx));
    // v2: a request's object events in one. Only comments added or changed are read and checked
    // whole (one malformed refuses the event, as before); the rest of a request (its 100 tasks) is
    // not this consumer's to parse or refuse.
    consumers.on(
      'uploads.link-notes-v2',
      eventAsRead(SyncEvents.objectEvents, objectEventHeads),
      async ({ events }, tx) => {
        for (const entry of events) if (mayLinkNote(entry)) await this.uploads.linkNote(readObjectEvent(entry), tx);
      },
      { concerns: ({ events }) => events.some(mayLinkNote) },
    );
  }

  @Handles(UploadsSubjects.limit)
  limit(request: { principal: Principal }): Promise<UploadLimit> {
    return this.uploads.limit(request.principal);
  }

  /**
   * A stored file by its signed URL: the signature, not a principal, authorises it. An avatar
   * size (`/avatars/<image_id>_<size>.jpg`) by its random id: public, as Todoist's are, and
   * never changing (a new avatar is a new id), so any cache may keep it.
   */
  @Handles(UploadsSubjects.file)
  async file(request: EdgeRequest): Promise<EdgeReply> {
    if (request.method === 'GET' && request.path.startsWith(AVATAR_PATH_PREFIX)) {
      const avatar = await this.avatars.blobFor(request.path);
      if (!avatar) throw new DomainError('NOT_FOUND', 'No such avatar');
      return { status: 200, body: null, blob: avatar, headers: { 'Cache-Control': 'public, max-age=31536000, immutable' } };
    }
    const blob = request.method === 'GET' && request.path.startsWith(FILE_PATH_PREFIX) ? await this.uploads.blobFor(request.path) : null;
    if (!blob) throw new DomainError('NOT_FOUND', 'No such file');
    return { status: 200, body: null, blob, headers: { 'Cache-Control': 'private, max-age=31536000, immutable' } };
  }

  @Handles(UploadsSubjects.edge, { principal: true })
  async edge(request: WithPrincipal<EdgeRequest>): Promise<EdgeReply> {
    const principal = request.principal;
    const generation = generationOf(request.dialect);
    const origin = request.origin ?? '';
    const params = paramsOf(request);
    const urls = await this.uploads.urlSigner();
    switch (operationOf(request)) {
      case 'update_avatar': {
        // DELETE removes the avatar; POST sets it from the multipart image (any file part's name: `image` as Todoist's clients send it, or `file`).
        if (request.method === 'DELETE') return jsonReply(200, await this.avatars.remove(principal));
        if (!request.upload) throw new DomainError('ARGUMENT_MISSING', 'Send the image as a multipart `image` part', { argument: 'image' });
        return jsonReply(200, await this.avatars.set(principal, request.upload, origin));
      }
      case 'add': {
        if (!request.upload) throw new DomainError('ARGUMENT_MISSING', 'Send the file as a multipart `file` part', { argument: 'file' });
        const record = await this.uploads.add(principal, request.upload, { fileName: textParam(params, 'file_name'), projectId: textParam(params, 'project_id') });
        return jsonReply(200, attachmentOf(record, generation, urls, origin));
      }
      case 'get': {
        const limit = limitParam(params);
        const records = await this.uploads.list(principal, limit, idParam(params, generation === 'v1' ? 'cursor' : 'last_id'));
        const listed = records.map((record) => listedUploadOf(record, generation, urls, origin));
        if (generation !== 'v1') return jsonReply(200, listed);
        return jsonReply(200, { results: listed, next_cursor: records.length === limit ? records[records.length - 1].id : null });
      }
      case 'delete': {
        const fileUrl = textParam(params, 'file_url');
        if (fileUrl === undefined) throw new DomainError('ARGUMENT_MISSING', 'file_url is required', { argument: 'file_url' });
        await this.uploads.delete(principal, fileUrl);
        return jsonReply(200, 'ok');
      }
    }
  }
}
