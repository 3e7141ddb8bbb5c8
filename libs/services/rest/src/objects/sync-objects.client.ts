import { randomUUID } from 'node:crypto';
import {
  type ObjectOf,
  type ObjectQuery,
  type ObjectQueryFor,
  type ObjectResource,
  type ObjectsRender,
  type ObjectsReply,
  type ObjectsRequestFor,
  requestIdUuid,
  SyncSubjects,
} from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { ServiceClient, type WithBodyBytes } from '@doable/shared-transport';
import { Injectable } from '@nestjs/common';
import type { RestCall } from '../call/rest-call';

/** A sync command as a REST handler builds it; the uuid is given here. */
export interface RestCommand {
  readonly type: string;
  readonly args: Record<string, unknown>;
}

/**
 * Sync's reply as rest holds it: a rendered answer's `body` (REST v2, the JSON text sync wrote)
 * as the bytes it came in, passed on to the gateway unread, never decoded here to be encoded again.
 */
export type SyncReply<R extends ObjectResource = ObjectResource> = WithBodyBytes<ObjectsReply<R>>;

/** The resources read one object at a time, by id. */
export type SingleResource = Extract<ObjectQuery, { id: string }>['resource'];

/**
 * The rest service's only way to data: the sync service's object subject. Every reply is typed by
 * the query sent (ObjectsReply<R>: the api/v1 objects that resource reads), so no handler casts.
 * A write's commands get uuids derived from `X-Request-Id` when there is one, so a replayed
 * request is answered from the sync command log (same object, no second effect), also when two
 * copies race.
 */
@Injectable()
export class SyncObjects {
  constructor(private readonly services: ServiceClient) {}

  /** `render`: the answer written in that dialect by the sync service (its `body`), rather than as api/v1 objects. */
  read<R extends ObjectResource>(call: RestCall, query: ObjectQueryFor<R>, render?: ObjectsRender): Promise<SyncReply<R>> {
    // The origin only where the answer names an address on it (the user object's push channel).
    const origin = query.resource === 'user' && call.origin !== undefined ? { origin: call.origin } : {};
    return this.send<R>({ principal: call.principal, commands: [], query, ...origin, ...rendered(render) });
  }

  /** Reads one object by id (not found is the sync service's coded 404). */
  async readOne<R extends SingleResource>(call: RestCall, query: ObjectQueryFor<R>): Promise<ObjectOf<R>> {
    return single(await this.read(call, query));
  }

  /** Runs one creating command and answers the object it created, read by `query` given its temp id. */
  async create<R extends SingleResource>(call: RestCall, command: RestCommand, query: (createdId: string) => ObjectQueryFor<R>): Promise<ObjectOf<R>> {
    return single(await this.createReading(call, command, query));
  }

  /** Runs one creating command and answers the reply of a query on what it created (given its temp id). */
  createReading<R extends ObjectResource>(call: RestCall, command: RestCommand, query: (createdId: string) => ObjectQueryFor<R>, render?: ObjectsRender): Promise<SyncReply<R>> {
    const uuid = this.uuid(call);
    const tempId = `rest-created:${uuid}`;
    return this.send<R>({
      principal: call.principal,
      commands: [{ type: command.type, uuid, temp_id: tempId, args: command.args }],
      query: query(tempId),
      ...rendered(render),
    });
  }

  /** Runs commands in order (the first refusal fails the call), then the optional read. */
  change<R extends ObjectResource = never>(call: RestCall, commands: readonly RestCommand[], then: ObjectQueryFor<R> | null = null, render?: ObjectsRender): Promise<SyncReply<R>> {
    const base = this.uuid(call);
    return this.send<R>({
      principal: call.principal,
      commands: commands.map((command, index) => ({ type: command.type, uuid: index === 0 ? base : `${base}:${index}`, args: command.args })),
      query: then,
      ...(then === null ? {} : rendered(render)),
    });
  }

  private send<R extends ObjectResource>(request: ObjectsRequestFor<R>): Promise<SyncReply<R>> {
    return this.services.request(SyncSubjects.objectsFor(request), request, { bodyAs: 'bytes' });
  }

  private uuid(call: RestCall): string {
    return call.requestId === null ? randomUUID() : requestIdUuid(call.requestId);
  }
}

/** The request's `render`, when there is one (left out otherwise, as a request without it always was). */
function rendered(render: ObjectsRender | undefined): { render?: ObjectsRender } {
  return render === undefined ? {} : { render };
}

/** The one object of a single-object query's reply. */
export function single<R extends ObjectResource>(reply: SyncReply<R>): ObjectOf<R> {
  const [object] = reply.objects;
  if (!object) throw new DomainError('INTERNAL', 'sync answered no object');
  return object;
}
