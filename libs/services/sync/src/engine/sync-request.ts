import type { RenderNeeds } from '../read/resource-source';

/** A Sync API request as the engine sees it, whatever dialect it came in. */
export interface SyncCommand {
  readonly type: string;
  readonly uuid: string;
  readonly args: Record<string, unknown>;
  readonly temp_id?: string;
}

export interface SyncRequest {
  /** `*` for a full sync, a previous token for changes only, null for a write-only request. */
  readonly syncToken: string | null;
  readonly resourceTypes: readonly string[];
  readonly commands: readonly SyncCommand[];
  /**
   * What the dialect needs read to render the requested types (Sync v8 writes a task's labels
   * as label ids, so it needs the user's labels to render items). Read in the read's snapshot,
   * handed to the dialect as SyncRead.context, never rendered as a resource.
   */
  readonly renderNeeds?: RenderNeeds;
}

export const MAX_COMMANDS_PER_REQUEST = 100;
