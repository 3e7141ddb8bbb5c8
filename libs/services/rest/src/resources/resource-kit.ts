import { type EdgeReply, JSON_MEDIA_TYPE } from '@doable/contracts-common';
import type { ApiLabel, ObjectOf, ObjectQuery, ObjectQueryFor, ObjectsRender, ObjectsReply } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { Inject, Injectable } from '@nestjs/common';
import { nextCursor, requestedPage } from '../call/page-cursor';
import type { RestCall } from '../call/rest-call';
import { type DialectContext, OBJECT_WRITERS, REST_DIALECTS, type RestDialect, type WrittenResource, type WrittenRestDialect } from '../dialects';
import { type RestCommand, single, SyncObjects, type SyncReply } from '../objects/sync-objects.client';

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
        | 'project_invitations'
        | 'workspace_invitations'
        | 'workspace_invitation'
        | 'workspace_plan_details'
        | 'workspace_membership'
        | 'role_permissions';
    }
>;

type ListResource = ListQuery['resource'];

/** Writes one object of a reply in the caller's dialect (the reply carries what the dialect needs, e.g. labels' ids). */
export type ObjectWriter<R extends ListResource> = (object: ObjectOf<R>, reply: SyncReply<R>) => unknown;

/** A list query whose objects a surface writes (sections, tasks, ...), paged on api/v1. */
type ListedResource = Exclude<WrittenResource, 'task' | 'project' | 'section' | 'label' | 'comment'>;
type SingleResource = Exclude<WrittenResource, ListedResource>;

/** The sync service's answer, passed on as it came (a REST v2 answer it wrote: its text, or its bytes). */
function renderedAnswer(reply: Pick<SyncReply, 'body'>): EdgeReply {
  if (reply.body === undefined) throw new DomainError('INTERNAL', 'sync answered objects where a rendered answer was asked');
  return { status: 200, body: reply.body, contentType: JSON_MEDIA_TYPE };
}

/**
 * What every resource handler needs: the data client, the caller's dialect, and the answers in
 * it. A surface rest writes (REST v1, api/v1) is written here from the api/v1 objects; REST v2 is
 * asked of the sync service, which writes it (libs/sync/dialects/src/rest-v2), and passed on.
 */
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
   * The dialect of a surface rest writes itself, for the answers only such surfaces have (a
   * project's `full` view and the like, api/v1 only): REST v2 is never asked them.
   */
  written(call: RestCall): WrittenRestDialect {
    const dialect = this.dialect(call);
    if (dialect.writtenBy !== 'rest') throw new DomainError('INTERNAL', `${call.operation} is not written for ${call.surface}`);
    return dialect;
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

  /** One object, read by `query`, in the caller's dialect. */
  async one<R extends SingleResource>(call: RestCall, query: ObjectQueryFor<R>): Promise<EdgeReply> {
    return this.answerOne(call, query.resource, await this.objects.read(call, query, this.render(call)));
  }

  /** Runs one creating command and answers the object it made, a `resource` read by `query` given its temp id. */
  async created<R extends SingleResource>(call: RestCall, command: RestCommand, resource: R, query: (createdId: string) => ObjectQueryFor<R>): Promise<EdgeReply> {
    return this.answerOne(call, resource, await this.objects.createReading(call, command, query, this.render(call)));
  }

  /** Runs commands and answers the object `query` then reads. */
  async changed<R extends SingleResource>(call: RestCall, commands: readonly RestCommand[], query: ObjectQueryFor<R>): Promise<EdgeReply> {
    return this.answerOne(call, query.resource, await this.objects.change<R>(call, commands, query, this.render(call)));
  }

  /** An update's answer: the object (REST v2, api/v1) or nothing (REST v1). */
  async updated<R extends SingleResource>(call: RestCall, commands: readonly RestCommand[], query: ObjectQueryFor<R>): Promise<EdgeReply> {
    if (this.dialect(call).updateAnswersObject) return this.changed(call, commands, query);
    await this.objects.change(call, commands);
    return noContent();
  }

  /** A list in the caller's dialect: a whole array (REST v1/v2) or a `{results, next_cursor}` page (api/v1). */
  async list<R extends ListedResource>(call: RestCall, query: ObjectQueryFor<R>): Promise<EdgeReply> {
    const dialect = this.dialect(call);
    // REST v2 lists come written, task lists by PostgreSQL: the same bytes, without parsing
    // hundreds of api/v1 tasks here only to write and serialise them again.
    if (dialect.writtenBy === 'sync') return renderedAnswer(await this.objects.read(call, query, this.render(call)));
    const write = OBJECT_WRITERS[query.resource];
    return this.listOf(call, query, (object, reply) => write(dialect, object, this.context(call, reply)));
  }

  /** A list of what no dialect shapes (shared labels' names), written by `write`, paged where the surface pages. */
  async listOf<R extends ListResource>(call: RestCall, query: ObjectQueryFor<R>, write: ObjectWriter<R>): Promise<EdgeReply> {
    if (!this.dialect(call).paginated) {
      const reply = await this.objects.read(call, query);
      return ok(reply.objects.map((object) => write(object, reply)));
    }
    const page = requestedPage(call);
    const reply = await this.objects.read<R>(call, { ...query, page });
    return ok({ results: reply.objects.map((object) => write(object, reply)), next_cursor: nextCursor(call, page, reply.hasMore) });
  }

  /** What the sync service is asked to write the answer in, for a surface it writes (REST v2). */
  private render(call: RestCall): ObjectsRender | undefined {
    const dialect = this.dialect(call);
    return dialect.writtenBy === 'sync' ? { dialect: dialect.render, public_url: this.publicUrl } : undefined;
  }

  private answerOne<R extends SingleResource>(call: RestCall, resource: R, reply: SyncReply<R>): EdgeReply {
    const dialect = this.dialect(call);
    if (dialect.writtenBy === 'sync') return renderedAnswer(reply);
    return ok(OBJECT_WRITERS[resource](dialect, single(reply), this.context(call, reply)));
  }
}
