import { type EdgeReply, type EdgeRequest, edgeRequestSchema, requestSubject } from '@doable/contracts-common';
import { z } from 'zod';

/** Every Sync API request (v9 and api/v1 dialects) forwarded by the gateway. */
export const edge = requestSubject<EdgeRequest, EdgeReply>('sync.edge.v1', edgeRequestSchema);

/** Whether a user's profile exists yet (it is created from auth's user-created event). */
export const userStatus = requestSubject<{ userId: string }, { exists: boolean }>(
  'sync.user.status.v1',
  z.object({ userId: z.string().regex(/^[0-9]+$/) }),
);

/** Completed-task history (v9 `completed/get_all`, api/v1 `tasks/completed/*`) forwarded by the gateway. */
export const completed = requestSubject<EdgeRequest, EdgeReply>('sync.edge.completed.v1', edgeRequestSchema);

/** Quick add (v9 `quick/add`, api/v1 `tasks/quick`) forwarded by the gateway. */
export const quickAdd = requestSubject<EdgeRequest, EdgeReply>('sync.edge.quick-add.v1', edgeRequestSchema);
