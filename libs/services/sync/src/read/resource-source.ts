import type { EntityManager } from 'typeorm';
import type { ResourceType } from '../engine/resource-types';

/** The Sync API dialects that render resources (v9 and the unified api/v1). */
export type SyncDialect = 'sync-v9' | 'sync-api-v1';

/** How one object is written in each dialect: both shapes side by side, so differences are plain. */
export type DialectWriters<Row> = Readonly<Record<SyncDialect, (row: Row) => Record<string, unknown>>>;

/**
 * One resource type of the Sync API: how its rows are read for a full sync (active data) and an
 * incremental one (everything stamped after a version, tombstones included), and which response
 * keys they fill. Adding a resource is adding one of these to the registry (resources.ts).
 */
export interface ResourceSource<Row = unknown> {
  readonly type: ResourceType;
  listActive(manager: EntityManager, userId: string): Promise<Row[]>;
  listChangedSince(manager: EntityManager, userId: string, version: string): Promise<Row[]>;
  render(rows: readonly Row[], dialect: SyncDialect): Record<string, unknown>;
}

/** Rows read for one request, with the source that knows how to render them. */
export interface ReadResource {
  readonly rows: readonly unknown[];
  readonly source: ResourceSource;
}

export const RESOURCE_SOURCES = Symbol('RESOURCE_SOURCES');
