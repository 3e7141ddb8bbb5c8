/**
 * A quick add kept in the command queue (issue #47): the line as typed, sent to the server's quick
 * add when a connection allows (session.ts sendQueued), so a line typed offline is parsed by the
 * one parser there is, the server's, and `tomorrow p2 @phone` become a date, a priority and a
 * label rather than part of the name. Not a Sync API command: the queue sends it by itself.
 */
export const QUICK_ADD = 'quick_add';

export interface QuickAddArgs {
  /** The line, with the view's `#Project` or `@label` appended as the add box does. */
  readonly text: string;
  /** The view's date for a line that names none (Today's `today`). */
  readonly due_if_none?: string;
  /** What the overlay shows until the server answers: item_add's terms (content as typed, the view's project or label). */
  readonly preview: Record<string, unknown>;
  /**
   * The task the server made, once quick add has answered (kept in the queue until the sync after
   * it settles the command): the overlay then shows the synced task only, and a resend after a
   * reload asks the sync alone, not quick add again.
   */
  readonly answered_id?: string;
}
