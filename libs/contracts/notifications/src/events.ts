import { eventSubject } from '@doable/contracts-common';
import { z } from 'zod';

/**
 * Live notifications were created or changed for these users. Sync consumes it and raises each
 * user's high-water mark, so their next incremental sync asks for notifications (without it,
 * a sync whose own data did not move would skip the notifications service).
 */
export const delivered = eventSubject('notifications.evt.delivered.v1', z.object({ userIds: z.array(z.string().regex(/^[0-9]+$/)).min(1) }));
