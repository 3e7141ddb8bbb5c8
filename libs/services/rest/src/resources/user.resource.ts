import { Injectable } from '@nestjs/common';
import type { OperationHandler, RestResource } from './operation';
import { ok, ResourceKit } from './resource-kit';

/** `GET /api/v1/user` (the current user) and `GET /api/v1/tasks/completed/stats` (their productivity). */
@Injectable()
export class UserResource implements RestResource {
  constructor(private readonly kit: ResourceKit) {}

  readonly operations: Readonly<Record<string, OperationHandler>> = {
    'user.get': async (call) => ok((await this.kit.objects.read(call, { resource: 'user' })).objects[0]),
    'user.productivity_stats': async (call) => ok((await this.kit.objects.read(call, { resource: 'productivity_stats' })).objects[0]),
  };
}
