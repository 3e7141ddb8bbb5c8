import type { CommandType } from '../api/sync-types';

/**
 * A quick add kept in the command queue (issue #47): the line as typed, sent to the server's quick
 * add when a connection allows (session.ts sendQueued), so a line typed offline is parsed by the
 * one parser there is, the server's, and `tomorrow p2 @phone` become a date, a priority and a
 * label rather than part of the name. Not a Sync API command: the queue sends it by itself.
 */
export const QUICK_ADD = 'quick_add' satisfies CommandType;

export type { QuickAddArgs } from '../api/sync-types';
