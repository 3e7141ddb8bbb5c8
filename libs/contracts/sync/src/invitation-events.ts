import { eventSubject } from '@doable/contracts-common';
import { z } from 'zod';
import { uid } from './event-fields';
import { notificationPerson } from './notification-person';

/**
 * Projects and workspaces invite alike (sync's one invitation model), so both kinds' invitation
 * events are made here from the same fields: a fix reaches both kinds, and a field only one kind
 * carries is named in that kind's event. Each kind gives where the invitation is to (`place`,
 * see event-fields.ts) and its own fields (`more`).
 */

/** How an invitation ended: its receiver answered it, or someone allowed to deleted (withdrew) it. */
const INVITATION_ANSWERS = ['accepted', 'rejected', 'deleted'] as const;

/** An invitation was made, or sent again with a new secret (`invitationSecret`, the only copy in clear). */
export function invitationSentEvent<Place extends z.ZodRawShape, Role extends z.ZodType, More extends z.ZodRawShape>(subject: string, parts: { place: Place; role: Role; more: More }) {
  return eventSubject(subject, z.object({
    invitationId: uid,
    invitationSecret: z.string().min(16),
    ...parts.place,
    inviter: notificationPerson,
    inviteeEmail: z.string(),
    // Null while no account has the address: the event is sent again when one is created.
    inviteeId: uid.nullable(),
    role: parts.role,
    ...parts.more,
  }));
}

/**
 * An invitation ended; `actor` is who ended it. `invitee` is what a kind says of the invitee
 * besides the address, kept before `actor` so that each payload keeps its fields' order.
 */
export function invitationAnsweredEvent<Place extends z.ZodRawShape, Invitee extends z.ZodRawShape, More extends z.ZodRawShape>(subject: string, parts: { place: Place; invitee: Invitee; more: More }) {
  return eventSubject(subject, z.object({
    invitationId: uid,
    ...parts.place,
    inviterId: uid,
    inviteeEmail: z.string(),
    ...parts.invitee,
    actor: notificationPerson,
    answer: z.enum(INVITATION_ANSWERS),
    ...parts.more,
  }));
}
