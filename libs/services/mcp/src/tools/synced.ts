import { randomUUID } from 'node:crypto';
import type { DomainCalls, JsonObject } from '../calls/domain-calls';

/**
 * Objects only the Sync API writes (filters, reminders): one command per object with a temp id,
 * then the created objects read back by their real ids, as api/v1 renders them in a sync.
 */
export async function addThroughSync(calls: DomainCalls, resource: string, type: string, argsList: readonly JsonObject[]): Promise<Array<{ id: string } & JsonObject>> {
  const tempIds = argsList.map(() => randomUUID());
  const { tempIds: mapping } = await calls.syncAll(argsList.map((args, index) => ({ type, args, temp_id: tempIds[index] })));
  return readByIds(calls, resource, tempIds.map((tempId) => mapping[tempId]));
}

/** Objects of one resource type by id, in the order asked (missing ones left out). */
export async function readByIds(calls: DomainCalls, resource: string, ids: readonly string[]): Promise<Array<{ id: string } & JsonObject>> {
  const all = await readAll(calls, resource);
  return ids.flatMap((id) => all.filter((object) => object.id === id));
}

/** Every live object of one resource type the caller sees. */
export async function readAll(calls: DomainCalls, resource: string): Promise<Array<{ id: string } & JsonObject>> {
  const answer = await calls.read([resource]);
  return ((answer[resource] ?? []) as Array<{ id: string } & JsonObject>).filter((object) => object['is_deleted'] !== true);
}
