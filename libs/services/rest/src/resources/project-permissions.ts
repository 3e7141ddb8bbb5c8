import type { EdgeReply } from '@doable/contracts-common';
import type { RestCall } from '../call/rest-call';
import { ok } from './resource-kit';
import type { SyncObjects } from '../objects/sync-objects.client';

/**
 * `GET /api/v1/projects/permissions`: what each project role and each workspace role may do.
 * Asked of sync over the objects read, not computed here: the table is derived from the policies
 * sync's command handlers declare, and only sync has the handlers. Asking at run time (one small
 * request on a rarely called endpoint) keeps a single source with nothing to regenerate; a table
 * generated at build time would be a second copy that a forgotten build step lets drift.
 */
export async function projectPermissions(objects: SyncObjects, call: RestCall): Promise<EdgeReply> {
  const reply = await objects.read(call, { resource: 'role_permissions' });
  return ok(reply.objects[0]);
}
