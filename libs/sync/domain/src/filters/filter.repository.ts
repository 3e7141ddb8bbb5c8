import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { updateVersioned } from '../persistence/versioned-update';
import { FILTER_COLUMNS, FILTER_WIRE_COLUMNS, type Filter, type WireFilter } from './filter.model';

/** A full sync's filters: the user's own. */
const ACTIVE_FILTERS = 'FROM sync.filters WHERE user_id = $1 AND NOT is_deleted ORDER BY item_order, id';

/** What a new saved filter holds, a user's own or a workspace's (workspace-filter.repository.ts). */
export interface FilterFields {
  readonly name: string;
  readonly query: string;
  readonly description: string | null;
  readonly color: string;
  /** null: after the last filter. */
  readonly itemOrder: number | null;
  readonly isFavorite: boolean;
}

export interface NewFilter extends FilterFields {
  readonly userId: string;
}

export type FilterChanges = Partial<{ name: string; query: string; description: string | null; color: string; item_order: number; is_favorite: boolean; is_deleted: boolean }>;

/** A user's filters; only their owner reads or changes them. Every method runs on the caller's transaction. */
@Injectable()
export class FilterRepository {
  async insert(manager: EntityManager, filter: NewFilter, version: string): Promise<Filter> {
    const [row] = await manager.query<Filter[]>(
      `INSERT INTO sync.filters (user_id, name, query, description, color, item_order, is_favorite, version)
       VALUES ($1, $2, $3, $4, $5, COALESCE($6, (SELECT COALESCE(max(item_order), 0) + 1 FROM sync.filters WHERE user_id = $1 AND NOT is_deleted)), $7, $8)
       RETURNING ${FILTER_COLUMNS}`,
      [filter.userId, filter.name, filter.query, filter.description, filter.color, filter.itemOrder, filter.isFavorite, version],
    );
    return row;
  }

  /** How many filters the user has (not deleted): what max_filters counts. */
  async countActive(manager: EntityManager, userId: string): Promise<number> {
    const [row] = await manager.query<Array<{ count: number }>>(`SELECT count(*)::int AS count FROM sync.filters WHERE user_id = $1 AND NOT is_deleted`, [userId]);
    return row.count;
  }

  /** The user's own filter (not deleted), locked for the rest of the transaction. */
  async findOwnedForUpdate(manager: EntityManager, userId: string, filterId: string): Promise<Filter | undefined> {
    const rows = await manager.query<Filter[]>(`SELECT ${FILTER_COLUMNS} FROM sync.filters WHERE id = $2 AND user_id = $1 AND NOT is_deleted FOR UPDATE`, [userId, filterId]);
    return rows[0];
  }

  async update(manager: EntityManager, filterId: string, changes: FilterChanges, version: string): Promise<void> {
    await updateVersioned(manager, 'sync.filters', [filterId], changes, version);
  }

  async listActive(manager: EntityManager, userId: string): Promise<Filter[]> {
    return manager.query<Filter[]>(`SELECT ${FILTER_COLUMNS} ${ACTIVE_FILTERS}`, [userId]);
  }

  /** listActive with the timestamps as wire text, for a full sync (it only writes them out). */
  async listActiveWire(manager: EntityManager, userId: string): Promise<WireFilter[]> {
    return manager.query<WireFilter[]>(`SELECT ${FILTER_WIRE_COLUMNS} ${ACTIVE_FILTERS}`, [userId]);
  }

  /** Everything stamped after a version, deletions included. */
  async listChangedSince(manager: EntityManager, userId: string, version: string): Promise<Filter[]> {
    return manager.query<Filter[]>(`SELECT ${FILTER_COLUMNS} FROM sync.filters WHERE user_id = $1 AND version > $2 ORDER BY id`, [userId, version]);
  }
}
