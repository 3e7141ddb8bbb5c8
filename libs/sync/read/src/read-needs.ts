import type { ItemRow, LabelRow, ObjectJsonSql, ProjectRow } from '@doable/sync-domain';
import type { SourcedType } from './sources/resource-source';

/**
 * What a dialect needs read beside the requested rows, read in the same snapshot (one query each,
 * never one per row; a dialect never reads the database itself). The old generations draw a
 * project's tasks as one flat list (`item_order`, `indent`): an incremental read holds only the
 * changed tasks, but a task's flat place depends on all its project's tasks.
 */
export interface ReadNeeds {
  /** Every active task of each project a read task belongs to (incremental reads; a full read has them all). */
  readonly projectTasks?: boolean;
  /** Every active project, when projects are read (their flat `item_order`/`indent`). */
  readonly allProjects?: boolean;
  /** The user's personal labels, when tasks are read (v7 tasks name their labels by id). */
  readonly labels?: boolean;
  /**
   * The resources whose objects a full read has PostgreSQL write as the dialect's JSON, each with
   * the dialect's SQL of one object (its writer in SQL, from the same field table): the source
   * answers the JSON text of its response keys instead of rows (ResourceRows), and the dialect
   * splices it into its answer. Not with the needs above, which read the rows.
   */
  readonly json?: JsonReads;
}

/** The resources a dialect has PostgreSQL write (ReadNeeds.json), each with its object's SQL. */
export type JsonReads = { readonly [T in SourcedType]?: ObjectJsonSql };

/** What was read for the needs: context for rendering, never answered as changed rows themselves. */
export interface ReadContext {
  /** The user's timezone (v7's `due_date_utc` is reckoned in it). */
  readonly timezone: string;
  /** Active tasks of the projects of the read's tasks (all active tasks on a full read). */
  readonly projectTasks?: readonly ItemRow[];
  readonly projects?: readonly ProjectRow[];
  readonly labels?: readonly LabelRow[];
}
