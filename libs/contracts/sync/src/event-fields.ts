import { eventSubject } from '@doable/contracts-common';
import { z } from 'zod';

/**
 * Fields that sync's project and workspace events share (events.ts, workspace-events.ts). Not
 * re-exported through SyncEvents: they are pieces of payloads, not events.
 */

/** Ids travel as strings of decimal digits, as sync writes them everywhere. */
export const uid = z.string().regex(/^[0-9]+$/);

/**
 * Where an event happened, named as it was then: a notification made from the event shows the
 * name even after the project or workspace is renamed or deleted.
 */
export const inProject = { projectId: uid, projectName: z.string() };
export const inWorkspace = { workspaceId: uid, workspaceName: z.string() };

/** The task an event is about, with its content then (what its notification quotes) and its project. */
export const aboutItem = { itemId: uid, itemContent: z.string(), projectId: uid };

/** An event that happened in a project or a workspace: the place first, then what happened there. */
export function placeEvent<Place extends z.ZodRawShape, Fields extends z.ZodRawShape>(subject: string, place: Place, fields: Fields) {
  return eventSubject(subject, z.object({ ...place, ...fields }));
}
