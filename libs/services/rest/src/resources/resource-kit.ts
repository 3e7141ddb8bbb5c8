import { type EdgeReply, JSON_MEDIA_TYPE } from '@doable/contracts-common';
import type { ApiLabel, ObjectOf, ObjectQuery, ObjectQueryFor, ObjectsReply } from '@doable/contracts-sync';
import { Inject, Injectable } from '@nestjs/common';
import { nextCursor, requestedPage } from '../call/page-cursor';
import type { RestCall } from '../call/rest-call';
import { type DialectContext, REST_DIALECTS, type RestDialect } from '../dialects';
import { SyncObjects } from '../objects/sync-objects.client';

export const PUBLIC_URL = Symbol('PUBLIC_URL');

export const ok = (body: unknown): EdgeReply => ({ status: 200, body });
export const noContent = (): EdgeReply => ({ status: 204, body: null });

type ListQuery = Exclude<
  ObjectQuery,
  | { id: string }
  | {
      resource:
        | 'user'
        | 'productivity_stats'
        | 'archived_projects_count'
        | 'id_mappings'
        | 'workspaces'
        | 'workspace_invitations'
        | 'workspace_invitation'
        | 'workspace_plan_details'
        | 'workspace_membership'
        | 'role_permissions';
    }
>;

type ListResource = ListQuery['resource'];

/** Writes one object of a reply in the caller's dialect (the reply carries what the dialect needs, e.g. labels' ids). */
export type ObjectWriter<R extends ListResource> = (object: ObjectOf<R>, reply: ObjectsReply<R>) => unknown;

function writeAll<R extends ListResource>(reply: ObjectsReply<R>, write: ObjectWriter<R>): unknown[] {
  return reply.objects.map((object) => write(object, reply));
}

/** What every resource handler needs: the data client, the caller's dialect, lists and pages. */
@Injectable()
export class ResourceKit {
  constructor(
    readonly objects: SyncObjects,
    @Inject(PUBLIC_URL) private readonly publicUrl: string,
  ) {}

  dialect(call: RestCall): RestDialect {
    return REST_DIALECTS[call.surface];
  }

  /**
   * The dialect context. REST v1 tasks also need their labels' ids: task queries ask the sync
   * service for them (`label_ids`), which names only the labels the returned tasks carry, so a
   * `task:add` token is answered the task it made without reading the label list.
   */
  context(call: RestCall, reply?: Pick<ObjectsReply, 'labelIds'>): DialectContext {
    if (call.surface !== 'rest-v1' || reply?.labelIds === undefined) return { publicUrl: this.publicUrl };
    return { publicUrl: this.publicUrl, labelIds: new Map(Object.entries(reply.labelIds)) };
  }

  /** Whether task queries should carry `label_ids` for this surface. */
  wantsLabelIds(call: RestCall): boolean {
    return call.surface === 'rest-v1';
  }

  /** The user's personal labels (REST v1 turns `label_ids` into names and back). */
  async labels(call: RestCall): Promise<readonly ApiLabel[]> {
    const reply = await this.objects.read(call, { resource: 'labels' });
    return reply.objects;
  }

  /** A list in the caller's dialect: a whole array (REST v1/v2) or a `{results, next_cursor}` page (api/v1). */
  async list<R extends ListResource>(call: RestCall, query: ObjectQueryFor<R>, write: ObjectWriter<R>): Promise<EdgeReply> {
    if (!this.dialect(call).paginated) return ok(writeAll(await this.objects.read(call, query), write));
    const page = requestedPage(call);
    const reply = await this.objects.read<R>(call, { ...query, page });
    return ok({ results: reply.objects.map((object) => write(object, reply)), next_cursor: nextCursor(call, page, reply.hasMore) });
  }

  /**
   * A REST v2 task list, written by the sync service from its rows with the REST contracts'
   * task writer and passed on as the JSON text it sent: the same bytes `list` would make, without
   * parsing the api/v1 tasks, writing them again and serialising the array here.
   */
  async renderedTaskList<R extends 'tasks' | 'tasks_by_filter'>(call: RestCall, query: ObjectQueryFor<R>, write: ObjectWriter<R>): Promise<EdgeReply> {
    const reply = await this.objects.readRendering(call, query, { dialect: 'rest-v2', public_url: this.publicUrl });
    if (reply.body !== undefined) return { status: 200, body: reply.body, contentType: JSON_MEDIA_TYPE };
    // A sync replica older than `render` ignores it and answers api/v1 tasks (during a rolling upgrade): written here, as before.
    return ok(writeAll(reply, write));
  }

  /** An update's answer: the object (REST v2, api/v1) or nothing (REST v1). */
  async updated(call: RestCall, read: () => unknown): Promise<EdgeReply> {
    return this.dialect(call).updateAnswersObject ? ok(await read()) : noContent();
  }
}
