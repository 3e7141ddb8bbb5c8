import { randomUUID } from 'node:crypto';
import type { DomainCalls, JsonObject } from '../calls/domain-calls';
import type { SyncListed, SyncListedType, SyncLists } from '../calls/sync-answer';

/**
 * Objects only the Sync API writes (filters, reminders): one command per object with a temp id,
 * then the created objects read back by their real ids, as api/v1 renders them in a sync.
 */
export async function addThroughSync<Type extends SyncListedType>(calls: DomainCalls, resource: Type, type: string, argsList: readonly JsonObject[]): Promise<Array<SyncListed[Type]>> {
  const tempIds = argsList.map(() => randomUUID());
  const { tempIds: mapping } = await calls.syncAll(argsList.map((args, index) => ({ type, args, temp_id: tempIds[index] })));
  return readByIds(calls, resource, tempIds.map((tempId) => mapping[tempId]));
}

/** Objects of one resource type by id, in the order asked (missing ones left out). */
export async function readByIds<Type extends SyncListedType>(calls: DomainCalls, resource: Type, ids: readonly string[]): Promise<Array<SyncListed[Type]>> {
  const all = await readAll(calls, resource);
  return ids.flatMap((id) => all.filter((object) => object.id === id));
}

/** Every live object of one resource type the caller sees. */
export async function readAll<Type extends SyncListedType>(calls: DomainCalls, resource: Type): Promise<Array<SyncListed[Type]>> {
  const lists: SyncLists = await calls.read([resource]);
  return (lists[resource] ?? []).filter((object) => object.is_deleted !== true);
}
