import type { PlanFeature } from '@doable/contracts-plans';
import type { ReadNeeds } from '@doable/sync-read';

/** A Sync API request as the engine sees it, whatever dialect it came in. */
export interface SyncCommand {
  readonly type: string;
  readonly uuid: string;
  readonly args: Record<string, unknown>;
  readonly temp_id?: string;
  /**
   * Set by a dialect, never read from the client: this generation let only paid plans run the
   * command (v8's project comments, v7's filters), so the engine refuses it on the catalogue's
   * default plan with FEATURE_NOT_IN_PLAN naming this feature (PlanGate.requirePaidPlan).
   */
  readonly paidOnly?: PlanFeature;
}

export interface SyncRequest {
  /** `*` for a full sync, a previous token for changes only, null for a write-only request. */
  readonly syncToken: string | null;
  readonly resourceTypes: readonly string[];
  readonly commands: readonly SyncCommand[];
  /** What the dialect needs read beside the rows to render them (the old generations' flat lists). */
  readonly readNeeds?: ReadNeeds;
  /** Request parameters only the dialect's render reads (v7's `day_orders_timestamp`); the engine passes them by. */
  readonly renderParams?: Readonly<Record<string, unknown>>;
}

export const MAX_COMMANDS_PER_REQUEST = 100;
