import { randomUUID } from 'node:crypto';
import { type ObjectQuery, type ObjectsRender, type ObjectsReply, requestIdUuid, SyncSubjects } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { ServiceClient } from '@doable/shared-transport';
import { Injectable } from '@nestjs/common';
import type { RestCall } from '../call/rest-call';

/** A sync command as a REST handler builds it; the uuid is given here. */
export interface RestCommand {
  readonly type: string;
  readonly args: Record<string, unknown>;
}

type SingleResource = Extract<ObjectQuery, { id: string }>['resource'];

/**
 * The rest service's only way to data: the sync service's object subject. A write's commands
 * get uuids derived from `X-Request-Id` when there is one, so a replayed request is answered
 * from the sync command log (same object, no second effect), also when two copies race.
 */
@Injectable()
export class SyncObjects {
  constructor(private readonly services: ServiceClient) {}

  read(call: RestCall, query: ObjectQuery): Promise<ObjectsReply> {
    // The origin only where the answer names an address on it (the user object's push channel).
    const origin = query.resource === 'user' && call.origin !== undefined ? { origin: call.origin } : {};
    return this.services.request(SyncSubjects.objects, { principal: call.principal, commands: [], query, ...origin });
  }

  /** A task list the sync service is asked to write in a dialect: `body` is then its JSON text. */
  readRendering(call: RestCall, query: ObjectQuery, render: ObjectsRender): Promise<ObjectsReply> {
    return this.services.request(SyncSubjects.objects, { principal: call.principal, commands: [], query, render });
  }

  /** Reads one object by id (not found is the sync service's coded 404). */
  async readOne(call: RestCall, resource: SingleResource, id: string): Promise<Record<string, unknown>> {
    return single(await this.read(call, { resource, id }));
  }

  /** Runs one creating command and answers the object it created. */
  async create(call: RestCall, command: RestCommand, resource: SingleResource): Promise<Record<string, unknown>> {
    return single(await this.createReading(call, command, (id) => ({ resource, id })));
  }

  /** Runs one creating command and answers the reply of a query on what it created (given its temp id). */
  createReading(call: RestCall, command: RestCommand, query: (createdId: string) => ObjectQuery): Promise<ObjectsReply> {
    const uuid = this.uuid(call);
    const tempId = `rest-created:${uuid}`;
    return this.services.request(SyncSubjects.objects, {
      principal: call.principal,
      commands: [{ type: command.type, uuid, temp_id: tempId, args: command.args }],
      query: query(tempId),
    });
  }

  /** Runs commands in order (the first refusal fails the call), then the optional read. */
  change(call: RestCall, commands: readonly RestCommand[], then: ObjectQuery | null = null): Promise<ObjectsReply> {
    const base = this.uuid(call);
    return this.services.request(SyncSubjects.objects, {
      principal: call.principal,
      commands: commands.map((command, index) => ({ type: command.type, uuid: index === 0 ? base : `${base}:${index}`, args: command.args })),
      query: then,
    });
  }

  private uuid(call: RestCall): string {
    return call.requestId === null ? randomUUID() : requestIdUuid(call.requestId);
  }
}

export function single(reply: ObjectsReply): Record<string, unknown> {
  const [object] = reply.objects;
  if (!object) throw new DomainError('INTERNAL', 'sync answered no object');
  return object;
}
