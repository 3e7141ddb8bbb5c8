import { eventSubject } from '@doable/contracts-common';
import { z } from 'zod';

const uid = z.string().regex(/^[0-9]+$/);

/** The kinds of object a domain event is about (the activity log's and webhooks' `object_type`). */
export const EVENT_OBJECT_TYPES = ['item', 'note', 'project', 'section', 'label', 'filter', 'reminder'] as const;
export type EventObjectType = (typeof EVENT_OBJECT_TYPES)[number];

/**
 * What happened to it. The activity log keeps the types of public-api-facts §1.4 (items added,
 * updated, deleted, completed, uncompleted; notes added, updated, deleted; projects added,
 * updated, deleted, archived, unarchived, shared, left); webhooks (§1.5) use the same names
 * as `<object_type>:<event_type>`.
 */
export const OBJECT_EVENT_TYPES = ['added', 'updated', 'deleted', 'completed', 'uncompleted', 'archived', 'unarchived', 'shared', 'left'] as const;
export type ObjectEventType = (typeof OBJECT_EVENT_TYPES)[number];

/**
 * One thing a command did to one object, recorded in sync's outbox in the command's own
 * transaction (so it exists exactly when the change committed, and once per command: a retried
 * uuid replays its stored outcome and records nothing). Who reacts is the consumers' business:
 * the activity log (sync), upload records linked to comments (uploads), webhooks (later).
 *
 * `extraData` is the activity log's `extra_data` as the public service fills it: for items
 * `content` (and on update `last_content`, `due_date`/`last_due_date`, `responsible_uid`/
 * `last_responsible_uid` where those changed), `client`; for notes `content`, `parent_item_content`?;
 * for projects `name` (and `last_name` on rename). Keys are snake_case, values JSON.
 */
const objectEventPayload = z.object({
  objectType: z.enum(EVENT_OBJECT_TYPES),
  objectId: uid,
  eventType: z.enum(OBJECT_EVENT_TYPES),
  /** Who ran the command. */
  initiatorId: uid,
  /** When it committed's stand-in: when the command ran, ISO 8601 UTC. */
  eventDate: z.string(),
  /** The project the object is in (for a project: its parent project, or null). */
  parentProjectId: uid.nullable(),
  /** For notes and reminders: their task; for subtasks: the parent task; else null. */
  parentItemId: uid.nullable(),
  /** The workspace the project belongs to, when it does. */
  workspaceId: uid.nullable(),
  extraData: z.record(z.string(), z.unknown()),
  /**
   * Notes only: the `file_url` of the comment's `file_attachment`, when it has one (uploads
   * links its record to the comment, its task and project). Absent for every other object.
   */
  fileUrl: z.string().nullable().optional(),
  /**
   * The object as the command left it, in the api/v1 shape (webhooks' `event_data`, version
   * '1'): taken when the event is recorded, so a consumer never reads a later state. Absent
   * from events recorded before it existed, and where a command had no whole object at hand.
   */
  object: z.record(z.string(), z.unknown()).optional(),
  /** Updates, completions and reopenings of tasks: the object before the command (webhooks' `old_item`). */
  previous: z.record(z.string(), z.unknown()).optional(),
  /**
   * The users the change concerns: the active members of the object's project (of a project:
   * its own), or only the initiator for an object in no shared project (labels, filters, an
   * Inbox). Absent from older events: the initiator alone, as then.
   */
  audience: z.array(uid).optional(),
});
export const objectEvent = eventSubject('sync.evt.object-event.v1', objectEventPayload);
export type ObjectEvent = z.infer<typeof objectEvent.payload>;

/**
 * Issue #48: the object events of one request's transaction (of one recording, outside the
 * command executor) as ONE event, in the order the changes were made: one outbox row, one
 * publish and one claim per consumer where v1 took one per object. Each entry
 * is a v1 payload, unchanged. Sync records only this version; consumers take both (v1 events
 * stay in the stream, and a sync of the previous release records v1 during a rolling update).
 * An entry's own id, where a consumer stores one per entry, is `<envelope id>/<index>`.
 */
export const objectEvents = eventSubject(
  'sync.evt.object-event.v2',
  z.object({
    events: z.array(objectEvent.payload).min(1),
  }),
  { checkedOnWrite: objectEventsAsWritten() },
);

/**
 * What sync's outbox checks of each entry it writes: every member, the object's states
 * (`object`, `previous`: api/v1 objects its own writers made) only as objects, not key by key.
 */
function objectEventsAsWritten() {
  const state = z.custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'an object');
  return z.object({ events: z.array(objectEventPayload.extend({ object: state.optional(), previous: state.optional() })).min(1) });
}
export type ObjectEvents = z.infer<typeof objectEvents.payload>;

/**
 * What every consumer reads of each entry of a v2 event to decide whether it reads more: which
 * object, what happened to it, who did it and whom it concerns. The rest of the entry is passed
 * through unchecked; a consumer checks an entry whole (`readObjectEvent`) where it uses it.
 */
const objectEventHead = z.looseObject({
  objectType: z.enum(EVENT_OBJECT_TYPES),
  objectId: uid,
  eventType: z.enum(OBJECT_EVENT_TYPES),
  initiatorId: uid,
  audience: z.array(uid).optional(),
});
export type ObjectEventHead = z.infer<typeof objectEventHead>;

/**
 * The v2 event as its consumers parse it (issue #48, third round): the envelope and each entry's
 * head checked, the rest of each entry (an api/v1 task twice, in `object` and `previous`) only
 * where a consumer uses that entry: uploads its notes, webhooks the entries someone authorised an
 * app for, the activity log the entries it keeps. Checking the 100 tasks of a request in every
 * consumer cost each about as much CPU as the request's own validation. Every payload that
 * `objectEvents` accepts passes; the wire format is the contract's, unchanged. Parse with it
 * through `eventAsRead(SyncEvents.objectEvents, objectEventHeads)`.
 */
export const objectEventHeads = z.object({
  events: z.array(objectEventHead).min(1),
});
export type ObjectEventHeads = z.infer<typeof objectEventHeads>;

/** An entry checked whole, as the contract has it: where a consumer uses it (throws, so the consumer refuses the event, as before). */
export function readObjectEvent(head: ObjectEventHead): ObjectEvent {
  return objectEvent.payload.parse(head);
}

/**
 * What the activity log stores of an entry: all but the object's states (`object`, `previous`),
 * which only webhooks send. Checked for each entry it may keep.
 */
const objectEventFacts = objectEventPayload.omit({ object: true, previous: true });
export type ObjectEventFacts = z.infer<typeof objectEventFacts>;

/** An entry checked without the object's states, which the caller does not read (throws on anything else malformed). */
export function readObjectEventFacts(head: ObjectEventHead): ObjectEventFacts {
  return objectEventFacts.parse(head);
}

/** Most entries in one v2 event (a request with more, a task deleted with many subtasks, records several). */
export const OBJECT_EVENTS_PER_MESSAGE = 100;

/** The id a consumer stores for entry `index` of a v2 event (the activity log's `event_id`): unique per change. */
export function objectEventEntryId(envelopeId: string, index: number): string {
  return `${envelopeId}/${index}`;
}
