import { ID_MAPPING_OBJECTS, type IdMappingObject } from '@doable/contracts-sync';
import { DomainError } from '@doable/shared-errors';
import { Injectable } from '@nestjs/common';
import type { RestCall } from '../call/rest-call';
import type { OperationHandler, RestResource } from './operation';
import { ok, ResourceKit } from './resource-kit';

const MAX_IDS = 100;

function objectKind(call: RestCall): IdMappingObject {
  const object = call.params['object'];
  const kind = ID_MAPPING_OBJECTS.find((candidate) => candidate === object);
  if (!kind) throw new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: obj_name (one of ${ID_MAPPING_OBJECTS.join(', ')})`, { argument: 'obj_name' });
  return kind;
}

function idsOf(call: RestCall): string[] {
  const ids = (call.params['ids'] ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id.length > 0);
  if (ids.length === 0) throw new DomainError('ARGUMENT_MISSING', 'Required argument is missing: obj_ids', { argument: 'obj_ids' });
  if (ids.length > MAX_IDS) throw new DomainError('INVALID_ARGUMENT_VALUE', `Invalid argument value: obj_ids (at most ${MAX_IDS})`, { argument: 'obj_ids' });
  if (ids.some((id) => id.length > 100)) throw new DomainError('INVALID_ARGUMENT_VALUE', 'Invalid argument value: obj_ids', { argument: 'obj_ids' });
  return ids;
}

/**
 * api/v1 `id_mappings/{obj}/{ids}`: old ids to new ones, `[{old_id, new_id}]`. Doable's ids never
 * changed between API versions, so every id the user can see maps to itself and one the user
 * cannot see is left out (it tells nothing about another user's objects).
 */
@Injectable()
export class IdMappingsResource implements RestResource {
  constructor(private readonly kit: ResourceKit) {}

  readonly operations: Readonly<Record<string, OperationHandler>> = {
    'id_mappings.get': async (call) => {
      const reply = await this.kit.objects.read(call, { resource: 'id_mappings', object: objectKind(call), ids: idsOf(call) });
      return ok(reply.objects);
    },
  };
}
